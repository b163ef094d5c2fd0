import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { appTheme } from './theme.ts';
import { PICTURE_STYLES } from '../features/schedule/lib/picture.ts';
import { contrast, inkOn } from '../shared/contrast.ts';

const AA = 4.5;
const config = appTheme(true);
/** The design tokens antd derives from the theme (palettes, tints, hover shades included). */
const t = theme.getDesignToken(config) as unknown as Record<string, string>;
const PRESETS = [
  'blue',
  'purple',
  'cyan',
  'green',
  'magenta',
  'pink',
  'red',
  'orange',
  'yellow',
  'volcano',
  'geekblue',
  'lime',
  'gold',
];

describe('WCAG contrast arithmetic', () => {
  it('gives the known ratios', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#ffffff', '#1677ff')).toBeCloseTo(4.1, 1);
    // 45% black on white is antd's #8c8c8c grey
    expect(contrast('rgba(0, 0, 0, 0.45)', '#ffffff')).toBeCloseTo(contrast('#8c8c8c', '#ffffff'), 1);
  });

  it('picks white or near-black text by the background', () => {
    expect(inkOn('#0958d9')).toBe('#ffffff');
    expect(inkOn('#ffc53d')).toBe('#1f1f1f');
  });
});

describe('the back office theme reads at AA contrast (4.5:1)', () => {
  it('primary text on its selected-row tint', () => {
    expect(contrast(t.colorPrimary, t.colorPrimaryBg)).toBeGreaterThanOrEqual(AA);
  });

  it('white text on the primary, danger and hovered buttons', () => {
    for (const bg of [t.colorPrimary, t.colorPrimaryHover, t.colorPrimaryActive, t.colorError, t.colorErrorHover])
      expect(contrast('#ffffff', bg), bg).toBeGreaterThanOrEqual(AA);
  });

  it('links, danger, success and warning text on white and the light greys', () => {
    const texts = [
      t.colorLink,
      t.colorLinkHover,
      t.colorError,
      t.colorErrorHover,
      t.colorSuccessText,
      t.colorWarningText,
    ];
    for (const fg of texts)
      for (const bg of ['#ffffff', '#fafafa', '#f5f5f5'])
        expect(contrast(fg, bg), `${fg} on ${bg}`).toBeGreaterThanOrEqual(AA);
  });

  it('secondary grey, descriptions and placeholders on white, table headers and disabled fields', () => {
    for (const fg of [t.colorTextTertiary, t.colorTextDescription, t.colorTextPlaceholder])
      for (const bg of ['#ffffff', '#fafafa', '#f5f5f5'])
        expect(contrast(fg, bg), `${fg} on ${bg}`).toBeGreaterThanOrEqual(AA);
  });

  it('every preset tag colour: its text on its tint', () => {
    const tag = config.components!.Tag as Record<string, string>;
    for (const name of PRESETS) {
      const text = tag[`${name}7`] ?? t[`${name}7`];
      const tint = t[`${name}1`];
      expect(contrast(text, tint), `${name}: ${text} on ${tint}`).toBeGreaterThanOrEqual(AA);
    }
  });

  it('status tags (success, processing, warning, error) on their tints', () => {
    const tag = config.components!.Tag as Record<string, string>;
    for (const status of ['Success', 'Info', 'Warning', 'Error']) {
      const text = tag[`color${status}`];
      const tint = t[`color${status}Bg`];
      expect(contrast(text, tint), `${status}: ${text} on ${tint}`).toBeGreaterThanOrEqual(AA);
    }
  });
});

describe('the timetable picture', () => {
  it("writes the weekday heads legibly on every style's accent", () => {
    for (const s of PICTURE_STYLES) expect(contrast(inkOn(s.accent), s.accent), s.key).toBeGreaterThanOrEqual(AA);
  });
});
