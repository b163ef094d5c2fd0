import {
  confirmLesson,
  LESSON_KIND_LABEL,
  markAttendanceCall,
  PayExceptionMsg,
  queryCheckinCode,
  type RosterEntry,
  type TodaySession,
} from '@studio/contract';
import { DownOutlined, PrinterOutlined, QrcodeOutlined, RightOutlined } from '@ant-design/icons';
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
import { lazy, Suspense, useState, type ReactNode } from 'react';
import dayjs from '../../shared/dayjs.ts';
import { balanceText } from '../../shared/format.ts';
import { useCan } from '../../shared/profile.ts';
import { Link } from '../../shared/router.tsx';
import { useAttendance, useConfirmLesson, useSignIn, useToday, type SignInOutcome } from './hooks.ts';
import { STATE_COLOR, STATE_TEXT } from './states.ts';
import './today.css';

const RosterPrintModal = lazy(() => import('./roster-print-modal.tsx'));
const CheckinQrModal = lazy(() => import('./checkin-qr-modal.tsx'));
const WEEKDAYS = ['周日', '周一', '周二', '周三', '周四', '周五', '周六'];
const PHASE = {
  now: { text: '进行中', color: 'processing' },
  upcoming: { text: '未开始', color: 'default' },
  ended: { text: '已结束', color: 'default' },
} as const;

/** The day's counts by what they are, in each deduction mode's words. */
const WORDS = {
  0: { came: '已到店', notYet: '未到' },
  1: { came: '已签到', notYet: '待签到' },
} as const;

/**
 * People (a booking's 人数) on a roster: all booked (bookings and pendings holding a seat), of them
 * who came (marked 到店, a member's scan, or a pending signed in), and who has not yet.
 */
function countsOf(roster: RosterEntry[]) {
  let all = 0;
  let came = 0;
  for (const r of roster) {
    all += r.studentCount;
    if (r.state === 'attended' || r.state === 'signed') came += r.studentCount;
  }
  return { all, came, notYet: all - came };
}

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
          aria-label="会员卡"
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
  const { all: bookedPeople, came: cameP } = countsOf(s.roster);
  const free = s.reservableCount - s.realCount;
  const canConfirm = useCan(confirmLesson);
  const confirm = useConfirmLesson();
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
      style={{ marginBottom: 12, borderLeft: `4px solid ${s.color}` }}
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
          {s.lesson && <Tag color="purple">{LESSON_KIND_LABEL[s.lesson.kind]}</Tag>}
          {s.lesson?.pending && (
            <Tag color="orange" data-testid="lesson-pending">
              待确认
            </Tag>
          )}
          {bookedPeople > 0 && (
            <Tag color={cameP ? 'green' : 'default'} data-testid="came-count">
              {mode === 1 ? '签到' : '到店'} {cameP}/{bookedPeople}
            </Tag>
          )}
          {s.lesson ? null : free <= 0 ? (
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
          {canConfirm && s.lesson?.pending && s.phase !== 'ended' && (
            <Button size="small" type="primary" loading={confirm.loading} onClick={() => void confirm.run(s.id)}>
              确认预约
            </Button>
          )}
          {canMark && notMarked.length > 0 && (
            <Button size="small" type="primary" onClick={() => setAttendAll(true)}>
              全部到店（{notMarked.length}）
            </Button>
          )}
          {waiting.length > 0 && (
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

/**
 * The day's finished classes, folded into one line that opens on click (today: the page starts at
 * the class on now or the next one).
 */
function EndedFold({ count, children }: { count: number; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="today-fold" data-testid="today-ended">
      <Button
        type="text"
        block
        className="today-fold-toggle"
        icon={open ? <DownOutlined /> : <RightOutlined />}
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        data-testid="today-ended-toggle"
      >
        已结束 {count} 节
        <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
          {open ? '点击收起' : '点击展开'}
        </Typography.Text>
      </Button>
      {open && <div className="today-fold-list">{children}</div>}
    </div>
  );
}

/**
 * 今日: the day's classes in time order with rosters, one-tap 到店 / 签到, 全部到店 / 全部签到 and a
 * printable roster. Today, the finished classes fold away above the current or next one.
 */
export default function TodayPage() {
  const [date, setDate] = useState<string | null>(null);
  const q = useToday(date);
  const [printing, setPrinting] = useState<TodaySession | null>(null);
  const [showQr, setShowQr] = useState(false);
  const canShowQr = useCan(queryCheckinCode);
  const day = q.data;
  const shown = dayjs(day?.date ?? undefined);
  const sessions = day?.sessions ?? [];
  const counts = countsOf(sessions.flatMap((s) => s.roster));
  const words = WORDS[day?.deductionMode === 1 ? 1 : 0];
  const isToday = !!day && day.date === day.now.slice(0, 10);
  const ended = isToday ? sessions.filter((s) => s.phase === 'ended') : [];
  const ahead = isToday ? sessions.filter((s) => s.phase !== 'ended') : sessions;
  const card = (s: TodaySession) =>
    day && (
      <SessionCard
        key={s.id}
        s={s}
        mode={day.deductionMode}
        today={day.now.slice(0, 10)}
        onPrint={() => setPrinting(s)}
      />
    );
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
      {day && day.exceptionOrders > 0 && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="today-pay-exceptions"
          message={PayExceptionMsg.today(day.exceptionOrders)}
          action={<Link to="/pay/orders">去处理</Link>}
        />
      )}
      {day && (
        // People (a booking's 人数): everyone booked, of them who came, and who has not yet.
        <Space className="today-counts" size="large" wrap style={{ marginBottom: 12 }}>
          <Typography.Text>共 {sessions.length} 节课</Typography.Text>
          <Typography.Text strong data-testid="today-summary" title="人数：已预约 = 已到 + 未到">
            已预约 {counts.all} · {words.came} {counts.came} · {words.notYet} {counts.notYet}
          </Typography.Text>
        </Space>
      )}
      {day && sessions.length === 0 && <Empty description="这一天没有课程" />}
      {ended.length > 0 && <EndedFold count={ended.length}>{ended.map(card)}</EndedFold>}
      {isToday && ended.length > 0 && ahead.length === 0 && (
        <Typography.Paragraph type="secondary" data-testid="today-all-ended">
          今天的课都已结束
        </Typography.Paragraph>
      )}
      {ahead.map(card)}
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
