import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import updateLocale from 'dayjs/plugin/updateLocale';
import weekOfYear from 'dayjs/plugin/weekOfYear';
import isoWeek from 'dayjs/plugin/isoWeek';

dayjs.extend(updateLocale);
dayjs.extend(weekOfYear);
dayjs.extend(isoWeek);
// Spec section 9: simplified Chinese, Monday first, week one = the week holding January 4th.
dayjs.updateLocale('zh-cn', { weekStart: 1, yearStart: 4 });
dayjs.locale('zh-cn');

export default dayjs;
