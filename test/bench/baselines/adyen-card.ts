/**
 * Size baseline: Adyen Web's card component, tree-shaken. `AdyenCheckout` and `Card` are the
 * package's named ES exports (v6 "tree-shakable" usage); its stylesheet (adyen.css) and the
 * iframes the card fields load at run time come on top and are not in this bundle.
 */
export { AdyenCheckout, Card } from '@adyen/adyen-web';
