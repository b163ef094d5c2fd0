/**
 * WCAG 2 contrast arithmetic, for choosing a text colour on a background the data decides (a
 * course's colour, a picture's accent) and for checking the theme's colours in the unit tests.
 */

/** `#rrggbb` or `rgba(r, g, b, a)` as [r, g, b, alpha]. */
function parse(colour: string): [number, number, number, number] {
  const m = /^rgba?\(([^)]+)\)$/.exec(colour.trim());
  if (m) {
    const [r, g, b, a = 1] = m[1].split(',').map(Number);
    return [r, g, b, a];
  }
  const hex = colour.replace('#', '');
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)).concat(1) as [number, number, number, number];
}

/** WCAG relative luminance of an opaque colour. */
function luminance([r, g, b]: number[]): number {
  const lin = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** Contrast ratio (1 to 21) of a text colour, possibly translucent, on an opaque background. */
export function contrast(text: string, background: string): number {
  const [r, g, b, a] = parse(text);
  const bg = parse(background);
  const fg = [r, g, b].map((c, i) => c * a + bg[i] * (1 - a));
  const [hi, lo] = [luminance(fg), luminance(bg)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** The text colour for a background: white or near-black, whichever reads better on it. */
export function inkOn(background: string): '#ffffff' | '#1f1f1f' {
  return contrast('#ffffff', background) >= contrast('#1f1f1f', background) ? '#ffffff' : '#1f1f1f';
}
