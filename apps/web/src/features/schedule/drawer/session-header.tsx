import { Descriptions, Tag } from 'antd';
import { ageLimitText, deductModeText, genderLimitText, minutesBetween, timeRange } from '../../../shared/format.ts';
import type { SessionInfo } from '../types.ts';

/** The session's facts at the top of the drawer. */
export function SessionHeader({ s, signInMode }: { s: SessionInfo; signInMode: boolean }) {
  return (
    <Descriptions size="small" column={2} bordered data-testid="session-header">
      <Descriptions.Item label="课程">{s.courseName}</Descriptions.Item>
      <Descriptions.Item label="上课老师">{s.teacherName}</Descriptions.Item>
      <Descriptions.Item label="上课时间">
        {timeRange(s.startTime, s.endTime)}（{s.duration || minutesBetween(s.startTime, s.endTime)}分钟）
      </Descriptions.Item>
      <Descriptions.Item label="场地">{s.areaName || '无'}</Descriptions.Item>
      <Descriptions.Item label="教材">{s.book?.name || '无'}</Descriptions.Item>
      <Descriptions.Item label="已预约/上限">
        <span data-testid="session-seats">
          {s.realCount}/{s.reservableCount}
        </span>
      </Descriptions.Item>
      <Descriptions.Item label="年龄限制">{ageLimitText(s)}</Descriptions.Item>
      <Descriptions.Item label="性别限制">{genderLimitText(s.genderLimit)}</Descriptions.Item>
      <Descriptions.Item label="可预约会员卡" span={2}>
        {s.cards.length ? s.cards.map((c) => <Tag key={c.id}>{c.name}</Tag>) : '无'}
      </Descriptions.Item>
      <Descriptions.Item label="扣费方式" span={2}>
        {deductModeText(signInMode)}
      </Descriptions.Item>
    </Descriptions>
  );
}
