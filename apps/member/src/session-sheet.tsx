import { amountText, type MemberSession } from '@studio/contract';
import { Button, Dialog, Popup, Toast } from 'antd-mobile';
import { AddOutline, MinusOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import type { StoreInfo } from './api.ts';
import { CardChoice } from './card-choice.tsx';
import { mineText, whenText } from './format.ts';
import { HealthForm, useHealthAsk } from './health.tsx';
import { useCardsForSession } from './queries.ts';
import { useBook, useCancel, useJoinWaitlist } from './writes.ts';
import { onSession } from './wire.ts';

/** A class's page as a sheet: details, my cards for it, book, cancel, queue or leave the queue. */
export function SessionSheet({
  store,
  session,
  signedIn,
  onClose,
  onLogin,
}: {
  store: StoreInfo;
  session: MemberSession | null;
  signedIn: boolean;
  onClose: () => void;
  onLogin: () => void;
}) {
  return (
    <Popup
      visible={session !== null}
      onMaskClick={onClose}
      onClose={onClose}
      bodyStyle={{ borderRadius: '16px 16px 0 0', maxHeight: '85vh', overflowY: 'auto' }}
    >
      {/* keyed by the class: another class starts with no card chosen and one person */}
      {session && (
        <SessionDetails
          key={session.id}
          store={store}
          s={session}
          signedIn={signedIn}
          onClose={onClose}
          onLogin={onLogin}
        />
      )}
    </Popup>
  );
}

function SessionDetails({
  store,
  s,
  signedIn,
  onClose,
  onLogin,
}: {
  store: StoreInfo;
  s: MemberSession;
  signedIn: boolean;
  onClose: () => void;
  onLogin: () => void;
}) {
  const needCards = signedIn && !s.mine && (s.bookable || s.waitlistOpen);
  const { data: cards } = useCardsForSession(s.id, needCards);
  // The card tapped, else the first usable one.
  const [picked, setPicked] = useState<number | null>(null);
  const mcId = picked ?? cards?.find((c) => c.usable)?.id ?? null;
  const [count, setCount] = useState(1);
  const book = useBook();
  const joinWaitlist = useJoinWaitlist();
  const cancel = useCancel();
  const busy = book.isPending || joinWaitlist.isPending || cancel.isPending;
  // 健康声明 due: asked here first (the store may require it before booking).
  const health = useHealthAsk(needCards);
  const [declaring, setDeclaring] = useState(false);

  /** Runs a write: its success in a toast and the sheet closed, or its refusal in a toast. */
  const act = async (fn: () => Promise<string>) => {
    try {
      const msg = await fn();
      Toast.show({ icon: 'success', content: msg });
      onClose();
    } catch (e) {
      Toast.show({ content: (e as Error).message, duration: 3000 });
    }
  };
  const policy = store.policy;
  // A late cancel under "forfeit" keeps a booking's deduction, and charges a pending's card one class.
  const cancelNote = (kind: string) =>
    policy.cancelMinutesBefore > 0
      ? `开课前${policy.cancelMinutesBefore}分钟内${
          policy.lateCancel !== 'forfeit'
            ? '不能在线取消'
            : kind === 'pending'
              ? '取消将按一次上课从会员卡扣费'
              : '取消不退回扣除'
        }。`
      : '';

  const mine = mineText(s);
  const chosen = cards?.find((c) => c.id === mcId);
  if (declaring) {
    return (
      <div className="sheet">
        <HealthForm onDone={() => setDeclaring(false)} doneText="返回预约" />
      </div>
    );
  }
  return (
    <div className="sheet" data-testid="session-sheet">
      <h3>{s.courseName}</h3>
      <div className="meta">
        <div>{whenText(s.fromTime, s.toTime)}</div>
        <div>
          老师：{s.teacherName}
          {s.areaName ? `，场地：${s.areaName}` : ''}
          {s.isOnline ? '，线上课' : ''}
        </div>
        <div>
          已约 {s.realCount}/{s.reservableCount}
          {s.waitCount ? `，候补 ${s.waitCount} 人` : ''}
          {mine ? `，我的状态：${mine.text}` : ''}
        </div>
      </div>

      {!signedIn && s.phase !== 'open' && (
        <div className="hint" data-testid="not-bookable">
          {s.reason}
        </div>
      )}

      {!signedIn && s.phase === 'open' && (
        <div className="actions">
          <Button block color="primary" size="large" onClick={onLogin}>
            登录后预约
          </Button>
        </div>
      )}

      {signedIn && !s.mine && !s.bookable && !s.waitlistOpen && (
        <div className="hint" data-testid="not-bookable">
          {s.reason ?? '暂不能预约'}
        </div>
      )}

      {needCards && (
        <>
          <CardChoice cards={cards} chosen={mcId} onChoose={setPicked} />
          {store.deductionMode === 0 && (
            <div className="row">
              <span id="count-label">上课人数</span>
              <CountPicker value={count} max={Math.max(1, s.reservableCount - s.realCount)} onChange={setCount} />
            </div>
          )}
          {chosen && (
            <div className="hint">
              {store.deductionMode === 0
                ? `预约时扣除 ${amountText(chosen.bigType, chosen.perCount * count)}，${cancelNote('booked') || '开课前可取消并退回。'}`
                : `先为你占位，到店签到时扣除 ${amountText(chosen.bigType, chosen.perCount)}。${cancelNote('pending')}`}
            </div>
          )}
          {health.due && (
            <div className="health-ask" data-testid="health-ask">
              <p>
                {health.blocks
                  ? '本店上课前须填写健康声明，填写后即可预约。'
                  : '上课前请填写健康声明，方便老师了解你的身体情况。'}
              </p>
              <Button size="small" color="primary" fill="outline" onClick={() => setDeclaring(true)}>
                填写健康声明
              </Button>
            </div>
          )}
          <div className="actions">
            {s.bookable ? (
              <Button
                block
                color="primary"
                size="large"
                loading={busy}
                disabled={!mcId || health.blocks}
                onClick={() =>
                  act(async () => {
                    const r = await book.mutateAsync({ ...onSession(s.id), mcId: mcId!, studentCount: count });
                    return r.kind === 'booked' ? '预约成功' : '已为你占位，签到时扣费';
                  })
                }
              >
                预约
              </Button>
            ) : (
              <Button
                block
                color="warning"
                size="large"
                loading={busy}
                disabled={!mcId || health.blocks}
                onClick={() =>
                  act(async () => {
                    const r = await joinWaitlist.mutateAsync({ ...onSession(s.id), mcId: mcId!, studentCount: 1 });
                    return `已加入候补，第${r.position}位`;
                  })
                }
              >
                课程已满，排队候补
              </Button>
            )}
          </div>
        </>
      )}

      {signedIn && s.mine && (
        <div className="actions">
          {(s.mine.kind === 'booked' || s.mine.kind === 'pending') && (
            <Button
              block
              color="danger"
              fill="outline"
              size="large"
              loading={busy}
              onClick={async () => {
                const ok = await Dialog.confirm({
                  title: '取消预约',
                  content: (
                    <>
                      <div>确定取消「{s.courseName}」的预约吗？</div>
                      {s.mine!.cancelCost && (
                        <div className="cancel-cost" data-testid="cancel-cost">
                          {s.mine!.cancelCost}
                        </div>
                      )}
                    </>
                  ),
                  confirmText: '取消预约',
                  cancelText: '再想想',
                });
                if (!ok) return;
                await act(async () => {
                  await cancel.mutateAsync({ kind: s.mine!.kind === 'pending' ? 'pending' : 'booked', id: s.mine!.id });
                  return '已取消';
                });
              }}
            >
              取消预约
            </Button>
          )}
          {s.mine.kind === 'waiting' && (
            <Button
              block
              fill="outline"
              size="large"
              loading={busy}
              onClick={() =>
                act(async () => {
                  await cancel.mutateAsync({ kind: 'waiting', id: s.mine!.id });
                  return '已退出候补';
                })
              }
            >
              退出候补
            </Button>
          )}
        </div>
      )}
    </div>
  );
}

/**
 * How many come (1 to `max`): − and + with the number between, named 上课人数 for screen readers.
 * In place of antd-mobile's Stepper, which puts its input's aria-value attributes on a plain div
 * too (axe: aria-allowed-attr) and leaves the input without a label.
 */
function CountPicker({ value, max, onChange }: { value: number; max: number; onChange: (n: number) => void }) {
  return (
    <span className="count-picker" role="group" aria-labelledby="count-label">
      <Button
        className="touch"
        fill="none"
        color="primary"
        aria-label="减少一人"
        disabled={value <= 1}
        onClick={() => onChange(value - 1)}
      >
        <MinusOutline />
      </Button>
      <span className="count-value" aria-live="polite" data-testid="student-count">
        {value}
      </span>
      <Button
        className="touch"
        fill="none"
        color="primary"
        aria-label="增加一人"
        disabled={value >= max}
        onClick={() => onChange(value + 1)}
      >
        <AddOutline />
      </Button>
    </span>
  );
}
