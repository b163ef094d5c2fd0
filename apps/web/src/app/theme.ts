import type { ThemeConfig } from 'antd';

/**
 * The back office's colours, legible for people who read these screens all day: every text colour
 * reaches WCAG AA contrast (4.5:1 for normal text) on the white, #fafafa (table headers) and #f5f5f5
 * (disabled, filled) backgrounds it sits on. antd's defaults keep their hues, only darker where the
 * default falls short (the ratios, foreground on background, are in the comments; axe-core checks
 * them on every screen the browser suites open, e2e/harness.ts).
 */

/** Brand blue (antd blue-7): white on it 6.16:1, it on white 6.16:1, on #e6f4ff 5.50:1. antd's #1677ff: 4.10:1. */
export const PRIMARY = '#0958d9';
/** Hover of buttons and links (a button stays hovered after a click): white on it 5.16:1, it on white 5.16:1. */
const PRIMARY_HOVER = '#1366e6';
/** Pressed (antd blue-8): 8.97:1. */
const PRIMARY_ACTIVE = '#003eb3';
/** Danger (antd red-7): on white 5.57:1, white on it 5.57:1 (antd's #ff4d4f: 3.26:1). */
const ERROR = '#cf1322';
/** Danger hover: on white 5.20:1, on #f5f5f5 4.77:1, white on it 5.20:1 (antd's #ff7875: 2.4:1). */
const ERROR_HOVER = '#d4202b';
/** Success text (antd green-8): on white 5.59:1, on #f6ffed 5.44:1 (antd's #52c41a: 2.27:1). */
const SUCCESS_TEXT = '#237804';
/** Warning text (antd orange-8): on white 5.43:1, on #fffbe6 5.22:1 (antd's #faad14: 1.90:1). */
const WARNING_TEXT = '#ad4e00';
/**
 * Grey for descriptions, hints, statistic titles, empty lists: 58% black, on white #6b6b6b 5.33:1,
 * on #fafafa 5.26:1, on #f0f0f0 5.11:1 (antd's 45%: 3.36:1 on white).
 */
const TEXT_TERTIARY = 'rgba(0, 0, 0, 0.58)';
/** Placeholders (select and input): 55% black, on white 4.74:1, on #f5f5f5 4.68:1 (antd's 25%: 1.83:1). */
const TEXT_PLACEHOLDER = 'rgba(0, 0, 0, 0.55)';

/**
 * The preset tag colours whose text (antd's shade 7 of the palette on shade 1) falls short, one
 * shade darker or two: green #237804 on #f6ffed 5.44:1, orange #ad4e00 on #fff7e6 5.09:1, gold
 * #874d00 on #fffbe6 6.53:1, cyan #006d75 on #e6fffb 5.82:1, volcano #ad2102 on #fff2e8 6.38:1,
 * lime #3f6600 on #fcffe6 6.62:1, yellow #876800 on #feffe6 5.15:1. blue, red, magenta, purple and
 * geekblue keep antd's shade 7 (5.0-8.9:1).
 */
const TAG_TEXT = {
  green7: SUCCESS_TEXT,
  orange7: WARNING_TEXT,
  gold7: '#874d00',
  cyan7: '#006d75',
  volcano7: '#ad2102',
  lime7: '#3f6600',
  yellow7: '#876800',
} as const;

export function appTheme(motion: boolean): ThemeConfig {
  return {
    token: {
      motion,
      colorPrimary: PRIMARY,
      colorPrimaryHover: PRIMARY_HOVER,
      colorPrimaryActive: PRIMARY_ACTIVE,
      colorPrimaryText: PRIMARY,
      colorPrimaryTextHover: PRIMARY_HOVER,
      colorInfo: PRIMARY,
      colorInfoText: PRIMARY,
      colorLink: PRIMARY,
      colorLinkHover: PRIMARY_HOVER,
      colorLinkActive: PRIMARY_ACTIVE,
      colorError: ERROR,
      colorErrorHover: ERROR_HOVER,
      colorErrorText: ERROR,
      colorErrorTextHover: ERROR_HOVER,
      colorSuccessText: SUCCESS_TEXT,
      colorWarningText: WARNING_TEXT,
      colorTextTertiary: TEXT_TERTIARY,
      colorTextDescription: TEXT_TERTIARY,
      colorTextPlaceholder: TEXT_PLACEHOLDER,
    },
    components: {
      // Status tags (success, processing, warning, error) colour their text with the status colour
      // itself, not its text shade: darker here only, icons and alerts keep antd's.
      Tag: {
        ...TAG_TEXT,
        colorSuccess: SUCCESS_TEXT,
        colorWarning: WARNING_TEXT,
        colorError: ERROR,
        colorInfo: PRIMARY,
      },
      // A table's 暂无数据 is written in the disabled grey.
      Table: { colorTextDisabled: TEXT_TERTIARY },
    },
  };
}
