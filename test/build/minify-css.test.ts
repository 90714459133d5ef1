import { describe, expect, it } from 'vitest';
import { minifyCssTemplates } from '../../vite.config.js';

const minify = (code: string, id = '/repo/src/elements/x/x.styles.ts') => {
  const transform = minifyCssTemplates().transform as (code: string, id: string) => string | null;
  return transform(code, id);
};

describe('the CSS template minifier of the browser build', () => {
  it('drops comments and spaces that carry no meaning', () => {
    expect(minify('css`\n  /* a note */\n  .a > .b ,\n  .c {\n    color: red;\n    margin: 0 auto;\n  }\n`')).toBe('css`.a>.b,.c{color:red;margin:0 auto}`');
  });

  it('keeps the space before a pseudo-class, which makes it a descendant selector', () => {
    expect(minify('css`.a :hover { color: red; }`')).toBe('css`.a :hover{color:red}`');
  });

  it('keeps spaces inside values such as calc() and grid areas', () => {
    expect(minify("css`.a { width: calc(100% - 2px); grid-template-areas: 'a b'; }`")).toBe("css`.a{width:calc(100% - 2px);grid-template-areas:'a b'}`");
  });

  it('leaves templates with interpolations and files that are not element styles alone', () => {
    expect(minify('css`.a { color: ${x}; }`')).toBe('css`.a { color: ${x}; }`');
    expect(minify('css`.a { color: red; }`', '/repo/src/elements/x/x.ts')).toBeNull();
  });
});
