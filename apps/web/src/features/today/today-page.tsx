import { markAttendanceCall, queryCheckinCode, type RosterEntry, type TodaySession } from '@studio/contract';
import { PrinterOutlined, QrcodeOutlined } from '@ant-design/icons';
import {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  DatePicker,
  Empty,
  Modal,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { lazy, Suspense, useState } from 'react';
import dayjs from '../../shared/dayjs.ts';
import { balanceText } from '../../shared/format.ts';
import { useCan } from '../../shared/profile.ts';
import { useAttendance, useSignIn, useToday, type SignInOutcome } from './hooks.ts';
import { STATE_COLOR, STATE_TEXT } from './states.ts';

const RosterPrintModal = lazy(() => import('./roster-print-modal.tsx'));
const CheckinQrModal = lazy(() => import('./checkin-qr-modal.tsx'));
const WEEKDAYS = ['周日', '周一', '周二', '周三', '周四', '周五', '周六'];
const PHASE = {
  now: { text: '进行中', color: 'processing' },
  upcoming: { text: '未开始', color: 'default' },
  ended: { text: '已结束', color: 'default' },
} as const;

type Choice = { entry: RosterEntry; cards: NonNullable<Extract<SignInOutcome, { done: false }>['cards']> };

/** A pending naming no card, signed in by a role that may not choose one (a teacher). */
const noCardText = (names: string) => `${names} 的预约没有指定会员卡，请前台签到`;

/** Choosing the card for a member who holds several usable ones (or none: the reasons are shown). */
function ChooseCardModal({
  choice,
  onSign,
  onClose,
}: {
  choice: Choice;
  onSign: (mcId: number) => void;
  onClose: () => void;
}) {
  const usable = choice.cards.filter((c) => c.usable);
  const [mcId, setMcId] = useState<number | undefined>(usable[0]?.id);
  return (
    <Modal
      open
      title={`${choice.entry.memberName} 签到`}
      okText="签到"
      okButtonProps={{ disabled: !mcId }}
      onOk={() => mcId && onSign(mcId)}
      onCancel={onClose}
    >
      {usable.length === 0 ? (
        <Typography.Text type="warning">该会员没有可用于本课程的会员卡，请先充值或办卡。</Typography.Text>
      ) : (
        <Select
          style={{ width: '100%' }}
          value={mcId}
          onChange={setMcId}
          data-testid="sign-in-card"
          options={choice.cards.map((c) => ({
            value: c.id,
            disabled: !c.usable,
            label: c.usable ? `${c.cardName}（余额 ${balanceText(c)}）` : `${c.cardName}（${c.reason ?? '不可用'}）`,
          }))}
        />
      )}
    </Modal>
  );
}

/** 全部到店: every booking not marked yet, ticked; the desk unticks who did not come. */
function AttendAllModal({
  s,
  entries,
  loading,
  onMark,
  onClose,
}: {
  s: TodaySession;
  entries: RosterEntry[];
  loading: boolean;
  onMark: (entries: RosterEntry[]) => void;
  onClose: () => void;
}) {
  const [ticked, setTicked] = useState<number[]>(entries.map((e) => e.id));
  const chosen = entries.filter((e) => ticked.includes(e.id));
  return (
    <Modal
      open
      title={`${s.startTime.slice(11, 16)} ${s.courseName}：全部到店`}
      okText={`确认到店（${chosen.length}）`}
      cancelText="取消"
      okButtonProps={{ disabled: !chosen.length, loading }}
      onOk={() => onMark(chosen)}
      onCancel={onClose}
    >
      <Typography.Paragraph type="secondary">没来的会员请取消勾选，其余记为已到店（不另扣费）。</Typography.Paragraph>
      <Checkbox.Group value={ticked} onChange={(v) => setTicked(v as number[])} data-testid="attend-all-list">
        <Space direction="vertical">
          {entries.map((e) => (
            <Checkbox key={e.id} value={e.id}>
              {e.memberName}
              {e.studentCount > 1 ? `（${e.studentCount}人）` : ''}
            </Checkbox>
          ))}
        </Space>
      </Checkbox.Group>
    </Modal>
  );
}

function SessionCard({
  s,
  mode,
  today,
  onPrint,
}: {
  s: TodaySession;
  mode: number;
  /** The store's date today: who came is marked from the class's day on. */
  today: string;
  onPrint: () => void;
}) {
  const { message } = App.useApp();
  const { one, all } = useSignIn(s.id, s.courseId);
  const attendance = useAttendance();
  const [choice, setChoice] = useState<Choice | null>(null);
  const [attendAll, setAttendAll] = useState(false);
  const waiting = s.roster.filter((r) => r.state === 'waiting');
  // Bookings paid when made (预约即扣费): who came is marked, nothing charged.
  const canMark = useCan(markAttendanceCall) && s.startTime.slice(0, 10) <= today;
  const notMarked = s.roster.filter((r) => r.state === 'booked');
  const bookedPeople = s.roster.filter((r) => r.state !== 'waiting').reduce((n, r) => n + r.studentCount, 0);
  const cameP = s.roster
    .filter((r) => r.state === 'attended' || r.state === 'signed')
    .reduce((n, r) => n + r.studentCount, 0);
  const free = s.reservableCount - s.realCount;
  const markOne = async (entry: RosterEntry, came: boolean) => {
    if (await attendance.one.run(entry, came)) {
      void message.success(came ? `${entry.memberName} 已到店` : `已撤销 ${entry.memberName} 的到店`);
    }
  };
  const markAll = async (entries: RosterEntry[]) => {
    const r = await attendance.all.run(entries);
    if (!r) return;
    setAttendAll(false);
    void message.success(`已到店 ${entries.length} 人`);
  };
  const signIn = async (entry: RosterEntry, mcId?: number) => {
    const r = await one.run(entry, mcId);
    if (!r) return;
    if (r.data.done) {
      setChoice(null);
      void message.success(`${entry.memberName} 签到成功`);
    } else if (r.data.cards) setChoice({ entry, cards: r.data.cards });
    else void message.warning(noCardText(entry.memberName));
  };
  const signAll = async () => {
    const r = await all.run(waiting);
    if (!r) return;
    const { signed, left, noCard } = r.data;
    if (!left.length && !noCard.length) void message.success(`已全部签到（${signed} 人）`);
    else {
      const names = (list: RosterEntry[]) => list.map((e) => e.memberName).join('、');
      const parts = [`已签到 ${signed} 人`];
      if (left.length) parts.push(`${names(left)} 需要选择会员卡，请逐个签到`);
      if (noCard.length) parts.push(noCardText(names(noCard)));
      void message.warning(parts.join('；'));
    }
  };
  return (
    <Card
      size="small"
      className={`today-session today-${s.phase}`}
      data-testid={`today-session-${s.id}`}
      style={{ marginBottom: 12, borderLeft: `4px solid ${s.color}`, opacity: s.phase === 'ended' ? 0.75 : 1 }}
      title={
        <Space wrap>
          <strong>
            {s.startTime.slice(11, 16)}-{s.endTime.slice(11, 16)}
          </strong>
          <span>{s.courseName}</span>
          <Typography.Text type="secondary">
            {s.teacherName}
            {s.areaName ? ` · ${s.areaName}` : ''}
          </Typography.Text>
          <Tag color={PHASE[s.phase].color}>{PHASE[s.phase].text}</Tag>
          {s.isOnline > 0 && <Tag color="purple">在线</Tag>}
          {mode === 0 && bookedPeople > 0 && (
            <Tag color={cameP ? 'green' : 'default'} data-testid="came-count">
              到店 {cameP}/{bookedPeople}
            </Tag>
          )}
          {free <= 0 ? (
            <Tag color="red">
              已满 {s.realCount}/{s.reservableCount}
            </Tag>
          ) : (
            <Tag color={s.phase === 'ended' ? 'default' : 'green'} data-testid="free-seats">
              {s.realCount}/{s.reservableCount} · 余 {free} 位
            </Tag>
          )}
        </Space>
      }
      extra={
        <Space>
          {canMark && notMarked.length > 0 && (
            <Button size="small" type="primary" onClick={() => setAttendAll(true)}>
              全部到店（{notMarked.length}）
            </Button>
          )}
          {mode === 1 && waiting.length > 0 && (
            <Button size="small" type="primary" loading={all.loading} onClick={signAll}>
              全部签到（{waiting.length}）
            </Button>
          )}
          <Button size="small" icon={<PrinterOutlined />} onClick={onPrint}>
            打印名单
          </Button>
        </Space>
      }
    >
      <Table<RosterEntry>
        size="small"
        rowKey={(r) => `${r.kind}-${r.id}`}
        pagination={false}
        dataSource={s.roster}
        locale={{ emptyText: '还没有人预约' }}
        columns={[
          { title: '会员', dataIndex: 'memberName' },
          { title: '手机号', dataIndex: 'mobile' },
          {
            title: '会员卡',
            render: (_, r) => r.cardName ?? <Typography.Text type="secondary">签到时选择</Typography.Text>,
          },
          { title: '人数', dataIndex: 'studentCount', width: 60 },
          { title: '备注', render: (_, r) => r.remark || '-' },
          {
            title: '状态',
            width: 90,
            render: (_, r) => <Tag color={STATE_COLOR[r.state]}>{STATE_TEXT[r.state]}</Tag>,
          },
          {
            title: '操作',
            width: 100,
            render: (_, r) =>
              r.state === 'waiting' ? (
                <Button size="small" type="link" loading={one.loading} onClick={() => signIn(r)}>
                  签到
                </Button>
              ) : canMark && r.state === 'booked' ? (
                <Button size="small" type="link" loading={attendance.one.loading} onClick={() => markOne(r, true)}>
                  到店
                </Button>
              ) : canMark && r.state === 'attended' ? (
                <Button size="small" type="link" loading={attendance.one.loading} onClick={() => markOne(r, false)}>
                  撤销到店
                </Button>
              ) : null,
          },
        ]}
      />
      {attendAll && (
        <AttendAllModal
          s={s}
          entries={notMarked}
          loading={attendance.all.loading}
          onMark={markAll}
          onClose={() => setAttendAll(false)}
        />
      )}
      {choice && (
        <ChooseCardModal
          choice={choice}
          onClose={() => setChoice(null)}
          onSign={(mcId) => signIn(choice.entry, mcId)}
        />
      )}
    </Card>
  );
}

/** 今日: the day's classes in time order with rosters, one-tap sign-in, 全部签到 and a printable roster. */
export default function TodayPage() {
  const [date, setDate] = useState<string | null>(null);
  const q = useToday(date);
  const [printing, setPrinting] = useState<TodaySession | null>(null);
  const [showQr, setShowQr] = useState(false);
  const canShowQr = useCan(queryCheckinCode);
  const day = q.data;
  const shown = dayjs(day?.date ?? undefined);
  const totals = (day?.sessions ?? []).reduce(
    (t, s) => {
      for (const r of s.roster) t[r.state] += r.studentCount;
      return t;
    },
    { booked: 0, attended: 0, signed: 0, waiting: 0 },
  );
  // Everyone booked (paid when booking, or signed in), and of them who came: the desk, the teacher
  // or the member's scan marked 到店, or a pending was signed in.
  const came = totals.attended + totals.signed;
  const allBooked = totals.booked + came;
  return (
    <Card
      title={
        <Space>
          <span>今日</span>
          <Typography.Text type="secondary">
            {shown.format('M月D日')} {WEEKDAYS[shown.day()]}
          </Typography.Text>
        </Space>
      }
      extra={
        <Space>
          {canShowQr && (
            <Button icon={<QrcodeOutlined />} onClick={() => setShowQr(true)} data-testid="checkin-qr-button">
              签到二维码
            </Button>
          )}
          {day && <Tag>{day.deductionMode === 1 ? '签到后扣费' : '预约即扣费'}</Tag>}
          <DatePicker
            allowClear
            placeholder="看其他日期"
            value={date ? dayjs(date) : null}
            onChange={(d) => setDate(d ? d.format('YYYY-MM-DD') : null)}
          />
        </Space>
      }
      loading={q.isPending}
    >
      {day?.smsCapReached && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="today-sms-cap"
          message="今天的短信已达到每天最多发送条数，会员收不到短信验证码"
          description="会员来问时，请在会员详情中点“给登录验证码”；店长可在 门店设置 → 短信服务 中查看或调高上限。"
        />
      )}
      {day && (
        <Typography.Paragraph data-testid="today-summary">
          {day.deductionMode === 1 ? (
            <>
              共 {day.sessions.length} 节课，已预约 {totals.booked + totals.attended} 人，已签到 {totals.signed}{' '}
              人，待签到 {totals.waiting} 人
            </>
          ) : (
            <>
              共 {day.sessions.length} 节课，已预约 {allBooked} 人 · 已到店 {came} 人 · 未到 {totals.booked} 人
            </>
          )}
        </Typography.Paragraph>
      )}
      {day && day.sessions.length === 0 && <Empty description="这一天没有课程" />}
      {day?.sessions.map((s) => (
        <SessionCard
          key={s.id}
          s={s}
          mode={day.deductionMode}
          today={day.now.slice(0, 10)}
          onPrint={() => setPrinting(s)}
        />
      ))}
      {printing && (
        <Suspense>
          <RosterPrintModal session={printing} onClose={() => setPrinting(null)} />
        </Suspense>
      )}
      {showQr && (
        <Suspense>
          <CheckinQrModal onClose={() => setShowQr(false)} />
        </Suspense>
      )}
    </Card>
  );
}
