import { forwardRef } from 'react';
import dayjs from '../../../shared/dayjs.ts';
import type { CalendarSession } from '../types.ts';
import { inkOn } from '../../../shared/contrast.ts';
import { DAY_PARTS, pictureGrid, PICTURE_STYLES } from '../lib/picture.ts';

interface Props {
  monday: string;
  sessions: CalendarSession[];
  styleKey: (typeof PICTURE_STYLES)[number]['key'];
  title: string;
  reminder: string;
  storeName: string;
  logo: string | null;
  qrCode: string | null;
}

const WEEK = ['周一', '周二', '周三', '周四', '周五', '周六', '周日'];

/** The weekly timetable as a picture: weekdays across, morning / afternoon / evening down. */
export const TimetablePicture = forwardRef<HTMLDivElement, Props>(function TimetablePicture(p, ref) {
  const style = PICTURE_STYLES.find((s) => s.key === p.styleKey) ?? PICTURE_STYLES[0];
  const dark = style.key === 'dark';
  const grid = pictureGrid(p.sessions);
  const days = WEEK.map((w, i) => ({ w, d: dayjs(p.monday).add(i, 'day').format('MM/DD') }));
  const ink = dark ? '#f0f0f0' : '#262626';
  return (
    <div
      ref={ref}
      data-testid="timetable-picture"
      style={{
        width: 1000,
        padding: 28,
        background: style.background,
        color: ink,
        fontFamily: "'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', sans-serif",
        boxSizing: 'border-box',
      }}
    >
      <div style={{ display: 'flex', alignItems: 'center', gap: 16, marginBottom: 16 }}>
        {p.logo && <img src={p.logo} alt="" style={{ width: 56, height: 56, objectFit: 'contain', borderRadius: 8 }} />}
        <div style={{ flex: 1 }}>
          <div style={{ fontSize: 30, fontWeight: 700, color: style.accent }}>{p.title}</div>
          <div style={{ fontSize: 14 }}>
            {p.storeName} · {dayjs(p.monday).format('YYYY-MM-DD')} 至{' '}
            {dayjs(p.monday).add(6, 'day').format('YYYY-MM-DD')}
          </div>
        </div>
      </div>
      <table style={{ width: '100%', borderCollapse: 'collapse', tableLayout: 'fixed', fontSize: 12 }}>
        <thead>
          <tr>
            <th style={{ width: 56 }} />
            {days.map((d) => (
              <th
                key={d.w}
                style={{ padding: 6, background: style.accent, color: inkOn(style.accent), border: '1px solid #fff' }}
              >
                {d.w}
                <div style={{ fontWeight: 400 }}>{d.d}</div>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {DAY_PARTS.map((part) => (
            <tr key={part.key}>
              <th style={{ border: `1px solid ${dark ? '#595959' : '#fff'}`, padding: 4 }}>{part.label}</th>
              {grid[part.key].map((cell, i) => (
                <td
                  key={i}
                  style={{
                    verticalAlign: 'top',
                    border: `1px solid ${dark ? '#595959' : '#fff'}`,
                    padding: 4,
                    height: 80,
                    background: dark ? 'rgba(255,255,255,0.06)' : 'rgba(255,255,255,0.6)',
                  }}
                >
                  {cell.map((s) => (
                    <div
                      key={s.id}
                      style={{
                        marginBottom: 4,
                        padding: 4,
                        borderRadius: 4,
                        borderLeft: `3px solid ${s.color || style.accent}`,
                      }}
                    >
                      <div style={{ fontWeight: 600 }}>{s.courseName}</div>
                      <div>
                        {s.fromTime.slice(11, 16)}-{s.toTime.slice(11, 16)}
                      </div>
                      <div>{s.teacherName}</div>
                    </div>
                  ))}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <div style={{ display: 'flex', alignItems: 'center', gap: 16, marginTop: 16 }}>
        <div style={{ flex: 1, fontSize: 14, whiteSpace: 'pre-wrap' }}>{p.reminder}</div>
        {p.qrCode && (
          <div style={{ textAlign: 'center', fontSize: 12 }}>
            <img src={p.qrCode} alt="" style={{ width: 96, height: 96, background: '#fff', padding: 4 }} />
            <div>扫码预约</div>
          </div>
        )}
      </div>
    </div>
  );
});
