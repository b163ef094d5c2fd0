import { maskMobile, type DataSection } from '@studio/contract';
import { sql } from 'kysely';
import type { Executor } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';

/**
 * Everything a store holds about one member (issue 45, item 5: the right to see and copy), table by
 * table: which rows are about them and which of their columns a person reads (ids of other rows
 * stay, so the parts link up; a store's own id, leases and retry counters do not). A table that
 * names a member or their cards is either here or in `NOT_EXPORTED` with why (the privacy test
 * holds every such table of the schema to it).
 */

/** Who the rows are about: the member, the cards they hold (or held), and their mobile. */
export interface DataOwner {
  storeId: number;
  memberId: number;
  mobile: string;
  cardIds: number[];
}

type Table = keyof Database;
type Col = readonly [key: string, header: string];
interface SectionDef {
  table: Table;
  title: string;
  columns: readonly Col[];
  /** The rows about the owner: a where-clause over the table (aliased `t`). */
  about: (o: DataOwner) => ReturnType<typeof sql<boolean>>;
}

const ids = (list: number[]) => (list.length ? sql.join(list.map((v) => sql.lit(v))) : sql`null`);
const byMember = (o: DataOwner) => sql<boolean>`t.member_id = ${o.memberId}`;
const byCard = (o: DataOwner) => sql<boolean>`t.member_card_id in (${ids(o.cardIds)})`;
const byMemberOrCard = (o: DataOwner) =>
  sql<boolean>`(t.member_id = ${o.memberId} or t.member_card_id in (${ids(o.cardIds)}))`;

const CREATED: Col = ['createdAt', '创建时间'];
const OPERATOR: Col = ['operatorId', '经办员工编号'];
const SESSION: Col = ['timetableId', '课程安排编号'];
const CARD: Col = ['memberCardId', '会员卡编号'];

export const SECTIONS: readonly SectionDef[] = [
  {
    table: 'member',
    title: '我的资料',
    about: (o) => sql<boolean>`t.id = ${o.memberId}`,
    columns: [
      ['id', '会员编号'],
      ['name', '姓名'],
      ['mobile', '手机号'],
      ['gender', '性别（1男 2女）'],
      ['birthday', '生日'],
      ['remark', '备注'],
      ['wechatOpenid', '微信服务号标识'],
      ['suspensionLiftedAt', '解除约课限制时间'],
      CREATED,
    ],
  },
  {
    table: 'memberConsent',
    title: '同意记录',
    about: byMember,
    columns: [
      ['kind', '事项'],
      ['version', '版本'],
      ['granted', '同意（1）或撤回（0）'],
      ['way', '方式'],
      ['at', '时间'],
    ],
  },
  {
    table: 'healthDeclaration',
    title: '健康声明',
    about: byMember,
    columns: [
      ['id', '编号'],
      ['questionnaireId', '问卷编号'],
      ['answers', '回答'],
      ['note', '补充说明'],
      ['shareDetails', '允许店长和老师查看（1）'],
      ['flagged', '有健康提示（1）'],
      ['answeredAt', '填写时间'],
    ],
  },
  {
    table: 'erasureRequest',
    title: '删除账号申请',
    about: byMember,
    columns: [
      ['id', '申请编号'],
      ['reason', '原因'],
      ['status', '状态'],
      ['requestedAt', '申请时间'],
      ['dueDate', '处理截止日期'],
      ['decidedAt', '处理时间'],
      ['note', '门店说明'],
    ],
  },
  {
    table: 'memberCard',
    title: '会员卡',
    about: byMember,
    columns: [
      ['id', '会员卡编号'],
      ['cardId', '卡种编号'],
      ['totalCount', '总次数或金额（分）'],
      ['usedCount', '已用'],
      ['startTime', '开始时间'],
      ['activateTime', '开卡时间'],
      ['expireTime', '到期时间'],
      ['validDays', '有效天数'],
      ['leaveDays', '已请假天数'],
      ['leavePeriods', '请假记录'],
      ['frozen', '冻结'],
      ['refundedAt', '退卡时间'],
      ['transferredAt', '转卡时间'],
      CREATED,
    ],
  },
  {
    table: 'cardContract',
    title: '合同',
    about: byMemberOrCard,
    columns: [
      ['id', '合同编号'],
      CARD,
      ['templateId', '合同模板编号'],
      ['terms', '合同条款'],
      ['createdAt', '生成时间'],
      ['signedAt', '签署时间'],
      ['signMethod', '签署方式'],
      ['signIp', '签署时的网络地址'],
      ['signUa', '签署时的设备'],
      ['pdfSha256', '合同文件指纹（SHA-256）'],
    ],
  },
  {
    table: 'cardShare',
    title: '会员卡共享',
    about: byMemberOrCard,
    columns: [['id', '编号'], CARD, ['memberId', '共享给的会员编号'], OPERATOR, CREATED],
  },
  {
    table: 'cardLeave',
    title: '请假',
    about: byMemberOrCard,
    columns: [
      ['id', '编号'],
      CARD,
      ['fromDate', '开始日期'],
      ['toDate', '结束日期'],
      ['days', '天数'],
      ['reason', '原因'],
      ['status', '状态'],
      ['requestedBy', '申请人'],
      ['decideRemark', '审批说明'],
      ['decidedAt', '审批时间'],
      ['endedDate', '提前结束日期'],
      CREATED,
    ],
  },
  {
    table: 'cardLedger',
    title: '会员卡流水',
    about: byMemberOrCard,
    columns: [
      ['id', '流水编号'],
      CARD,
      ['kind', '类型'],
      ['amount', '次数或金额（分）'],
      ['reservationId', '预约编号'],
      SESSION,
      ['remark', '备注'],
      OPERATOR,
      CREATED,
    ],
  },
  {
    table: 'cardPayment',
    title: '收款记录',
    about: byCard,
    columns: [
      ['id', '编号'],
      CARD,
      ['kind', '类型'],
      ['amount', '金额（分）'],
      ['method', '方式'],
      ['channel', '渠道'],
      ['payOrderId', '订单编号'],
      ['remark', '备注'],
      CREATED,
    ],
  },
  {
    table: 'payOrder',
    title: '线上订单',
    about: byMember,
    columns: [
      ['id', '编号'],
      ['orderNo', '订单号'],
      ['kind', '类型'],
      ['productId', '卡种编号'],
      CARD,
      ['amount', '金额（分）'],
      ['refunded', '已退金额（分）'],
      ['method', '支付方式'],
      ['description', '说明'],
      ['status', '状态'],
      ['providerTradeId', '支付平台交易号'],
      ['paidAt', '支付时间'],
      ['closedAt', '关闭时间'],
      CREATED,
    ],
  },
  {
    table: 'payRefund',
    title: '退款',
    about: (o) =>
      sql<boolean>`(t.member_card_id in (${ids(o.cardIds)}) or t.pay_order_id in (select id from pay_order where member_id = ${o.memberId}))`,
    columns: [
      ['id', '编号'],
      ['refundNo', '退款单号'],
      ['payOrderId', '订单编号'],
      CARD,
      ['amount', '金额（分）'],
      ['reason', '原因'],
      ['status', '状态'],
      ['failReason', '失败原因'],
      ['settledAt', '到账时间'],
      CREATED,
    ],
  },
  {
    table: 'reservation',
    title: '预约',
    about: byMember,
    columns: [
      ['id', '预约编号'],
      SESSION,
      CARD,
      ['studentCount', '人数'],
      ['usedCount', '扣除'],
      ['status', '状态'],
      ['remark', '备注'],
      ['createTime', '预约时间'],
      ['cancelTime', '取消时间'],
      ['attendedTime', '签到时间'],
      ['waiveReason', '免扣原因'],
    ],
  },
  {
    table: 'pending',
    title: '待签到的预约',
    about: byMember,
    columns: [
      ['id', '编号'],
      SESSION,
      CARD,
      ['studentCount', '人数'],
      ['status', '状态'],
      ['remark', '备注'],
      ['noShowFee', '缺席扣除'],
      ['createTime', '预约时间'],
      ['cancelTime', '取消时间'],
      ['waiveReason', '免扣原因'],
    ],
  },
  {
    table: 'history',
    title: '预约记录',
    about: byMember,
    columns: [
      ['id', '编号'],
      SESSION,
      CARD,
      ['reservationId', '预约编号'],
      ['operateType', '操作'],
      ['studentCount', '人数'],
      ['usedCount', '扣除'],
      ['remark', '备注'],
      OPERATOR,
      ['createTime', '时间'],
    ],
  },
  {
    table: 'waitlist',
    title: '排队',
    about: byMember,
    columns: [
      ['id', '编号'],
      SESSION,
      CARD,
      ['studentCount', '人数'],
      ['status', '状态'],
      ['skipReason', '未补上的原因'],
      ['createTime', '排队时间'],
      ['endTime', '结束时间'],
    ],
  },
  {
    table: 'fixStudent',
    title: '固定课表学员',
    about: byCard,
    columns: [['id', '编号'], ['fixId', '固定课表编号'], CARD, ['studentCount', '人数']],
  },
  {
    table: 'notifyLog',
    title: '发给我的消息',
    about: byMember,
    columns: [
      ['id', '编号'],
      ['kind', '类型'],
      ['channel', '渠道'],
      ['status', '状态'],
      ['reason', '说明'],
      ['payload', '内容'],
      ['dueAt', '计划时间'],
      ['sentAt', '发送时间'],
      CREATED,
    ],
  },
  {
    table: 'notifyPref',
    title: '消息设置',
    about: byMember,
    columns: [
      ['kind', '消息类型'],
      ['off', '已关闭'],
    ],
  },
  {
    table: 'lead',
    title: '潜客记录',
    about: (o) => sql<boolean>`(t.mobile = ${o.mobile} or t.converted_member_id = ${o.memberId})`,
    columns: [
      ['id', '编号'],
      ['name', '姓名'],
      ['mobile', '手机号'],
      ['source', '来源'],
      ['interests', '兴趣'],
      ['notes', '备注'],
      ['preferredTimes', '方便的时间'],
      ['stage', '阶段'],
      ['lostReason', '流失原因'],
      ['convertedAt', '成交时间'],
      CREATED,
    ],
  },
  {
    table: 'leadFollowUp',
    title: '跟进记录',
    about: (o) =>
      sql<boolean>`t.lead_id in (select id from lead where store_id = ${o.storeId} and (mobile = ${o.mobile} or converted_member_id = ${o.memberId}))`,
    columns: [
      ['id', '编号'],
      ['leadId', '潜客编号'],
      ['way', '方式'],
      ['note', '内容'],
      ['nextDate', '下次跟进'],
      CREATED,
    ],
  },
  {
    table: 'leadTrial',
    title: '体验课',
    about: (o) =>
      sql<boolean>`(t.member_id = ${o.memberId} or t.lead_id in (select id from lead where store_id = ${o.storeId} and (mobile = ${o.mobile} or converted_member_id = ${o.memberId})))`,
    columns: [
      ['id', '编号'],
      ['leadId', '潜客编号'],
      ['timetableId', '课程编号'],
      ['status', '状态'],
      ['createTime', '预约时间'],
      ['attendedTime', '到店时间'],
      ['cancelTime', '取消时间'],
    ],
  },
  {
    table: 'referralReward',
    title: '转介绍奖励',
    about: (o) =>
      sql<boolean>`(t.referrer_member_id = ${o.memberId} or t.friend_member_id = ${o.memberId} or t.member_card_id in (${ids(o.cardIds)}))`,
    columns: [
      ['id', '编号'],
      ['referrerMemberId', '推荐人编号'],
      ['friendMemberId', '好友编号'],
      ['triggerOn', '发放时机'],
      ['kind', '奖励方式'],
      ['amount', '奖励数量'],
      ['status', '状态'],
      CARD,
      ['grantedAt', '发放时间'],
      ['undoneAt', '撤销时间'],
      CREATED,
    ],
  },
  {
    table: 'auditLog',
    title: '操作记录',
    about: (o) =>
      sql<boolean>`(t.member_id = ${o.memberId} or t.id in (select audit_id from audit_target where store_id = ${o.storeId} and ((type = 'member' and ref_id = ${o.memberId}) or (type = 'lead' and ref_id in (select id from lead where store_id = ${o.storeId} and (mobile = ${o.mobile} or converted_member_id = ${o.memberId}))))))`,
    columns: [
      ['id', '编号'],
      ['actorName', '操作人'],
      ['summary', '操作'],
      ['target', '对象'],
      ['beforeJson', '修改前'],
      ['afterJson', '修改后'],
      ['at', '时间（毫秒）'],
    ],
  },
  {
    table: 'calendarFeed',
    title: '日历订阅',
    about: (o) => sql<boolean>`(t.owner = 'member' and t.owner_id = ${o.memberId})`,
    columns: [CREATED],
  },
];

/**
 * Tables that name a member or their cards and are not in the download, with why: a login's secrets
 * and its passing state are not data about the person (and must not leave the server).
 */
export const NOT_EXPORTED: Partial<Record<Table, string>> = {
  memberSession: '登录会话（令牌不得外传）',
  memberLoginCode: '一次性登录验证码（哈希，不得外传）',
  wechatOauthState: '微信登录过程中的临时状态（几分钟内失效）',
};

/** Snake case of a camelCase table name, as the database has it. */
const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

type Cell = string | number | null;
/** A cell as the member reads it: another person's mobile quoted in a record (a share, a transfer) masked. */
const cell = (v: unknown, own: string): Cell => {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return v;
  return String(v).replace(/1\d{10}/g, (m) => (m === own ? m : maskMobile(m)));
};

/** The member's rows of every table, in order; each table's rows by id (or as stored). */
export async function memberDataSections(ex: Executor, o: DataOwner): Promise<DataSection[]> {
  return Promise.all(
    SECTIONS.map(async (s) => {
      const { rows } = await sql<
        Record<string, unknown>
      >`select * from ${sql.table(snake(s.table))} t where t.store_id = ${o.storeId} and ${s.about(o)}`.execute(ex);
      const sorted = [...rows].sort((a, b) => Number(a.id ?? 0) - Number(b.id ?? 0));
      return {
        key: s.table,
        title: s.title,
        columns: s.columns.map(([key, header]) => ({ key, header })),
        rows: sorted.map((r) => s.columns.map(([key]) => cell(r[key] ?? r[snake(key)], o.mobile))),
      };
    }),
  );
}
