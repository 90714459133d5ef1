/**
 * Size baseline: Braintree's client and hosted fields, the modules a card-only Braintree checkout
 * loads (the fields themselves are iframes it loads at run time, not in this bundle).
 * JavaScript because braintree-web ships no type declarations.
 */
import client from 'braintree-web/client';
import hostedFields from 'braintree-web/hosted-fields';

export { client, hostedFields };
