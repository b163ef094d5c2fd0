import { CheckOutlined, FieldTimeOutlined, UserAddOutlined } from '@ant-design/icons';
import { addLessonMember, confirmLesson, LESSON_KIND_LABEL, moveLesson } from '@studio/contract';
import { Alert, Button, Space, Tag, Tooltip } from 'antd';
import { useCan } from '../../../shared/profile.ts';
import { useConfirmLesson } from '../hooks/lessons.ts';
import type { SessionInfo } from '../types.ts';

/** A lesson's cancel cutoff in words: 12小时, 1小时30分钟, 45分钟 (0: none). */
export function cutoffText(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${h ? `${h}小时` : ''}${m ? `${m}分钟` : ''}`;
}

/**
 * A lesson's (私教/小班) line in its drawer: its kind, 待确认 with 确认 (the teacher or the desk),
 * 添加学员 (a 小班 or 1对2 with room; 已满 when it has none), 调整时间, the cancel cutoff in words and
 * why it was booked outside the offered times.
 */
export function LessonPanel({ s, onMove, onAdd }: { s: SessionInfo; onMove: () => void; onAdd: () => void }) {
  const lesson = s.lesson!;
  const canConfirm = useCan(confirmLesson);
  const canMove = useCan(moveLesson);
  const canAdd = useCan(addLessonMember) && lesson.maxMembers > 1;
  const full = s.realCount >= lesson.maxMembers;
  const confirm = useConfirmLesson();
  const cutoff = lesson.cancelCutoffMinutes;
  return (
    <Alert
      type={lesson.pending ? 'warning' : 'info'}
      showIcon={false}
      data-testid="lesson-panel"
      message={
        <Space wrap>
          <Tag color="purple">{LESSON_KIND_LABEL[lesson.kind]}</Tag>
          {lesson.pending ? <Tag color="orange">待确认</Tag> : <Tag color="green">已确认</Tag>}
          {lesson.maxMembers > 1 && (
            <span data-testid="lesson-members">
              学员 {s.realCount}/{lesson.maxMembers} 人
            </span>
          )}
          <span>
            {cutoff
              ? `开课前${cutoffText(cutoff)}内取消按迟到取消处理，本节课照常扣除；之前取消退回课时。`
              : '开课前取消都退回课时。'}
          </span>
          {lesson.outsideReason && <span>可约时段外预约：{lesson.outsideReason}</span>}
        </Space>
      }
      action={
        !s.ended && (
          <Space>
            {canConfirm && lesson.pending && (
              <Button
                type="primary"
                icon={<CheckOutlined />}
                loading={confirm.loading}
                onClick={() => void confirm.run(s.id)}
              >
                确认预约
              </Button>
            )}
            {canAdd &&
              (full ? (
                <Tooltip title={`这节课最多${lesson.maxMembers}人，已满`}>
                  <Button icon={<UserAddOutlined />} disabled data-testid="lesson-full">
                    已满 {s.realCount}/{lesson.maxMembers}
                  </Button>
                </Tooltip>
              ) : (
                <Button icon={<UserAddOutlined />} onClick={onAdd}>
                  添加学员
                </Button>
              ))}
            {canMove && (
              <Button icon={<FieldTimeOutlined />} onClick={onMove}>
                调整时间
              </Button>
            )}
          </Space>
        )
      }
    />
  );
}
