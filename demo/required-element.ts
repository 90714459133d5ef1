/**
 * The element at `selector` that the page's own markup holds: the demo's page scripts are written
 * for their HTML, so a missing one is a broken page, said by name rather than as a null deep inside.
 */
export function requiredElement<Tag extends keyof HTMLElementTagNameMap>(selector: Tag, root?: ParentNode): HTMLElementTagNameMap[Tag];
export function requiredElement(selector: string, root?: ParentNode): HTMLElement;
export function requiredElement(selector: string, root: ParentNode = document): HTMLElement {
  const element = root.querySelector(selector);
  if (!(element instanceof HTMLElement)) throw new Error(`the page has no HTML element ${selector}`);
  return element;
}
