import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * The database, in camelCase (db/snake-case.ts writes them in snake_case).
 * Local times are text `YYYY-MM-DD HH:mm:ss` in the store's time zone; instants are epoch ms.
 * Money is integer fen; counts are integers; flags are 0/1.
 */
export interface StoreTable {
  id: Generated<number>;
  name: string;
  timezone: string;
  logoFileId: number | null;
  qrCode: string | null;
  createdAt: number;
}
export interface StaffTable {
  id: Generated<number>;
  username: string;
  mobile: string | null;
  name: string;
  passwordHash: string;
  createdAt: number;
  /** Moves on every change of posts or password (cached profiles compare it). */
  authVersion: Generated<number>;
}
export interface PostTable {
  id: Generated<number>;
  staffId: number;
  storeId: number;
  /** 'manager', 'desk' or 'teacher'. */
  role: string;
  /** A teacher account's teacher. */
  teacherId: number | null;
  /** 0: a disabled staff member (cannot log in to this store). */
  enabled: Generated<number>;
}
/** One audit entry (migration 1800): who did what, when, to what; never updated. */
export interface AuditLogTable {
  id: Generated<number>;
  storeId: number;
  at: number;
  actorKind: 'staff' | 'member' | 'system';
  staffId: number | null;
  memberId: number | null;
  actorName: string;
  call: string;
  kind: string;
  target: string;
  summary: string;
  beforeJson: string | null;
  afterJson: string | null;
  undoJson: string | null;
  undoOf: number | null;
  /** When an erasure took a member's name and mobile out of its text (migration 20261209_0100). */
  redactedAt: string | null;
}
export interface AuditTargetTable {
  auditId: number;
  storeId: number;
  type: string;
  refId: number;
}
/** A member's one-time login code (migration 0900): its hash, expiry, wrong tries and use. */
export interface MemberLoginCodeTable {
  id: Generated<number>;
  storeId: number;
  memberId: number;
  codeHash: string;
  /** 'sms' or 'desk'. */
  source: string;
  createdAt: number;
  expiresAt: number;
  tries: Generated<number>;
  usedAt: number | null;
}
/** A member's session (its own cookie); expiresAt moves on with use (30 days idle). */
export interface MemberSessionTable {
  id: string;
  memberId: number;
  storeId: number;
  createdAt: number;
  expiresAt: number;
}
/** A state of WeChat's web authorisation given to a member's session: taken once, before it expires. */
export interface WechatOauthStateTable {
  state: string;
  sessionId: string;
  storeId: number;
  memberId: number;
  expiresAt: number;
}
/** A private calendar address (a member's bookings, a teacher's classes): the token is its secret. */
export interface CalendarFeedTable {
  token: string;
  storeId: number;
  owner: 'member' | 'teacher';
  ownerId: number;
  createdAt: number;
}
export interface HttpSessionTable {
  id: string;
  staffId: number;
  createdAt: number;
  expiresAt: number;
}
/** Login attempts per key (`s:<staff id>`, `n:<typed name>`, `i:<address>`) since startedAt. */
export interface LoginCounterTable {
  key: string;
  startedAt: number;
  n: number;
}
/** Installation secrets shared by every instance (`altcha`: the challenge HMAC key). */
export interface AppSecretTable {
  name: string;
  value: string;
}
export interface StoreModuleTable {
  storeId: number;
  moduleId: number;
  status: number;
}
export interface StoreSettingTable {
  storeId: number;
  key: string;
  value: string;
}
export interface StoreFileTable {
  id: Generated<number>;
  storeId: number;
  mime: string;
  data: Buffer;
  createdAt: number;
}
export interface AreaTable {
  id: Generated<number>;
  storeId: number;
  parentId: number | null;
  name: string;
  sort: number;
}
export interface TeacherTable {
  id: Generated<number>;
  storeId: number;
  name: string;
  mobile: string | null;
  meetingType: number | null;
  meetingCode: string | null;
  joinUrl: string | null;
  deleted: number;
}
export interface CardProductTable {
  id: Generated<number>;
  storeId: number;
  cardName: string;
  bigType: number;
  cardType: number;
  perCount: number;
  price: number;
  validDays: number | null;
  /** Default balance the issue form starts from: a count, or fen (migration 1150). */
  totalCount: number | null;
  enabled: number;
  deleted: number;
  /** 线上售卖 (migration 20261129_0100): members may buy it on their phone at `onlinePrice` fen. */
  onlineSale: Generated<number>;
  onlinePrice: Generated<number>;
  /** 体验卡: sold online once per member. */
  trial: Generated<number>;
  /** 开卡方式 (migration 20261129_0850): contract CardActivation ('sale', 'first_class', 'date'). */
  activation: Generated<'sale' | 'first_class' | 'date'>;
  /** For 'date': the day `YYYY-MM-DD` the card starts. */
  activationDate: string | null;
  /** For 'date' (migration 20261206_2080): 1, a card sold after that day starts on the day of sale (and is sold online). */
  lateSaleStartsToday: Generated<number>;
  /** A lesson pack (私教课包, migration 20261207_0100) bound to one teacher or a teacher level (null: any). */
  teacherId: number | null;
  teacherLevel: 'junior' | 'senior' | 'master' | null;
  /** For 'first_class': the card starts at most this many days after the sale. */
  activateWithinDays: Generated<number>;
  /** 请假: allowed (0/1), times per card, most days per leave and in total (null: no limit). */
  leaveAllowed: Generated<number>;
  leaveTimes: number | null;
  leaveDaysMax: number | null;
  leaveDaysTotal: number | null;
  /** Classes a card may book per day / per week (null: no cap). */
  maxPerDay: number | null;
  maxPerWeek: number | null;
  /** After the cooling-off days: the refund keeps this percent (0-100) of the amount paid. */
  refundFeePercent: Generated<number>;
  /** Members besides the holder who may book on a card of it (多人共享; 0: not shared; migration 20261129_1200). */
  shareMax: Generated<number>;
}
export interface AgeLimitColumns {
  genderLimit: number;
  ageLimit: number;
  syear: number | null;
  smonth: number | null;
  sday: number | null;
  eyear: number | null;
  emonth: number | null;
  eday: number | null;
}
export interface CourseTable extends AgeLimitColumns {
  id: Generated<number>;
  storeId: number;
  name: string;
  count: number;
  duration: number;
  color: string;
  description: string | null;
  enabled: number;
  deleted: number;
  /** 1: 少儿课程, its receipt has a line for a parent's signature (migration 20261128_1200). */
  forChildren: Generated<number>;
  /** Migration 20261207_0100 (issue 43): 'group' (a group class) or a lesson type: 1对1, 1对2, 小班. */
  kind: Generated<'group' | 'one_on_one' | 'one_on_two' | 'small_group'>;
  /** A lesson type's most members (1, 2, or 2-6 for 小班); unused for a group class. */
  maxMembers: Generated<number>;
  /** A lesson type's least notice to book, and its cancel cutoff (later: the lesson is consumed). */
  minNoticeMinutes: Generated<number>;
  cancelCutoffMinutes: Generated<number>;
  /** Free start times are offered every 15 or 30 minutes. */
  slotStep: Generated<number>;
}
/** Who gives a lesson type, optionally at a level (migration 20261207_0100). */
export interface LessonTeacherTable {
  storeId: number;
  courseId: number;
  teacherId: number;
  level: 'junior' | 'senior' | 'master' | null;
}
/** A lesson type's price (fen) per teacher level ('' without levels): what a 储值卡 pays a lesson. */
export interface LessonPriceTable {
  storeId: number;
  courseId: number;
  level: Generated<string>;
  price: number;
}
/** The rooms a lesson type may use (none: it needs no room). */
export interface LessonRoomTable {
  storeId: number;
  courseId: number;
  areaId: number;
}
/** A store's machines: `count` of them, optionally standing in a room. */
export interface EquipmentTable {
  id: Generated<number>;
  storeId: number;
  name: string;
  count: number;
  areaId: number | null;
  deleted: Generated<number>;
}
/** How many of a machine one member of a lesson type uses. */
export interface LessonEquipmentTable {
  storeId: number;
  courseId: number;
  equipmentId: number;
  perMember: Generated<number>;
}
/** A teacher's weekly working hours: weekday 1 (Monday) … 7, store-local 'HH:mm'. */
export interface TeacherHoursTable {
  id: Generated<number>;
  storeId: number;
  teacherId: number;
  weekday: number;
  startTime: string;
  endTime: string;
}
/** A dated exception: 'off' (whole day when start/end are null) or 'extra' hours. */
export interface TeacherHoursExceptionTable {
  id: Generated<number>;
  storeId: number;
  teacherId: number;
  date: string;
  kind: 'off' | 'extra';
  startTime: string | null;
  endTime: string | null;
  reason: string | null;
  createdAt: string;
}
export interface CourseCardTable {
  storeId: number;
  courseId: number;
  cardId: number;
}
export interface MaterialTable {
  id: Generated<number>;
  storeId: number;
  parentId: number | null;
  name: string;
  level: number;
  sort: number;
}
export interface MemberTable {
  id: Generated<number>;
  storeId: number;
  name: string;
  mobile: string;
  gender: number;
  birthday: string | null;
  remark: string | null;
  createdAt: string;
  /** Staff lifted an online-booking suspension: no-shows before this no longer count (migration 1400). */
  suspensionLiftedAt: string | null;
  /** The member's openid under the store's WeChat service account (migration 20261129_0900). */
  wechatOpenid: string | null;
  /** When the member's personal fields were erased at their request (migration 20261209_0100). */
  erasedAt: string | null;
}
/** A consent given or withdrawn (migration 20261209_0100): never changed; a kind's latest row holds. */
export interface MemberConsentTable {
  id: Generated<number>;
  storeId: number;
  memberId: number;
  kind: 'privacy' | 'marketing' | 'health';
  version: string;
  granted: number;
  way: 'phone' | 'desk' | 'sms_reply' | 'link';
  at: string;
}
/** A lead's marketing consent given or withdrawn (migration 20261211_800): the latest row is its choice. */
export interface LeadConsentTable {
  id: Generated<number>;
  storeId: number;
  leadId: number;
  granted: number;
  way: 'visit' | 'phone' | 'online' | 'sms_reply' | 'link' | 'import';
  staffId: number | null;
  at: string;
}
/** A store's health questions, one row a version (migration 20261210_400): the highest is in force. */
export interface HealthQuestionnaireTable {
  id: Generated<number>;
  storeId: number;
  version: number;
  /** JSON array of the questions' texts. */
  questions: string;
  createdAt: string;
  createdBy: number | null;
}
/** A version of a store's contract template (migration 20261211_100): never changed. */
export interface ContractTemplateTable {
  id: Generated<number>;
  storeId: number;
  version: number;
  title: string;
  body: string;
  createdAt: string;
  createdBy: number | null;
}
/** The contract of one card's sale (migration 20261211_100): its template version and the sale's terms (JSON). */
export interface CardContractTable {
  id: Generated<number>;
  storeId: number;
  memberCardId: number;
  /** The buyer (the card's holder at the sale). */
  memberId: number;
  templateId: number;
  terms: string;
  createdAt: string;
  /** Server time of the signature (store-local); null: 待签约 (migration 20261212_100). */
  signedAt: string | null;
  /** 'sms' 手机验证码 (online), 'qr' 扫码签署, 'tablet' 平板手写. */
  signMethod: string | null;
  /** The member who signed. */
  signerId: number | null;
  signIp: string | null;
  signUa: string | null;
  /** The drawn signature (PNG), for 平板手写. */
  signaturePng: Buffer | null;
  /** The signed contract rendered (set once, with its hashes; then the row never changes). */
  pdf: Buffer | null;
  pdfSha256: string | null;
  /** SHA-256 over pdfSha256 and the contract's fields (canonical JSON). */
  sealSha256: string | null;
  /** SHA-256 of the desk's signing QR token (random), and when it expires (ms). */
  signToken: string | null;
  signTokenExpires: string | null;
}
/** A member's health declaration (migration 20261210_400): deleted with the consent or the account. */
export interface HealthDeclarationTable {
  id: Generated<number>;
  storeId: number;
  memberId: number;
  questionnaireId: number;
  /** JSON `[{question, yes}]`. */
  answers: string;
  note: string | null;
  shareDetails: number;
  flagged: number;
  answeredAt: string;
}
/** A member's request to delete their account (migration 20261209_0100). */
export interface ErasureRequestTable {
  id: Generated<number>;
  storeId: number;
  memberId: number;
  reason: string | null;
  status: Generated<'pending' | 'done' | 'rejected' | 'withdrawn'>;
  requestedAt: string;
  dueDate: string;
  decidedAt: string | null;
  decidedBy: number | null;
  note: string | null;
}
/** A prospect (潜客, migration 20261207_1500): one per store and mobile; owner null = 公海. */
export interface LeadTable {
  id: Generated<number>;
  storeId: number;
  name: string;
  mobile: string;
  source: string;
  interests: string | null;
  notes: string | null;
  preferredTimes: string | null;
  ownerId: number | null;
  /** 'new' | 'contacted' | 'trial_booked' | 'trial_done' | 'won' | 'lost'. */
  stage: Generated<string>;
  lostReason: string | null;
  nextFollowUp: string | null;
  /** Store-local: creation, the last follow-up, assignment or take (the pool return counts from it). */
  touchedAt: string;
  createdBy: number | null;
  createdAt: string;
  /** Set once, by the first card sold to the member holding the mobile (stage 'won'). */
  convertedCardId: number | null;
  convertedMemberId: number | null;
  convertedOwnerId: number | null;
  convertedSource: string | null;
  convertedAt: string | null;
  /** When the lead first reached 已联系, 已约体验, 已体验 (migration 20261209_500; the funnel). */
  contactedAt: Generated<string | null>;
  trialBookedAt: Generated<string | null>;
  trialDoneAt: Generated<string | null>;
  /** The member whose referral link brought the lead (转介绍, migration 20261209_600), or null. */
  referrerMemberId: number | null;
  /** The teacher of the lead's attended trial class (migration 20261210_500; the funnel). */
  trialTeacherId: Generated<number | null>;
}
/** A lead's trial class (体验课, migration 20261210_500): a seat without a card. */
export interface LeadTrialTable {
  id: Generated<number>;
  storeId: number;
  leadId: number;
  timetableId: number;
  /** 1 booked, 2 attended (keeps its seat), 3 cancelled. */
  status: Generated<number>;
  /** The lead's stage when booked (a cancel puts it back). */
  stageBefore: string;
  /** The session's teacher when the attendance was marked. */
  teacherId: number | null;
  operatorId: number | null;
  createTime: string;
  attendedTime: string | null;
  cancelTime: string | null;
  /** A paid trial: the member whose booking (with their 体验卡) in the session it rides on; no seat of its own. */
  memberId: number | null;
}
/** 转介绍奖励 (migration 20261210_600): one a referred lead at most. */
/** A marketing text's send (migration 20261212_500): who, when, the text, the audience and its counts then. */
export interface MarketingSendTable {
  id: Generated<number>;
  storeId: number;
  staffId: number | null;
  /** The text and audience's hash, unique per store (a repeat at once writes nothing); retired past the window. */
  dedupeKey: string;
  text: string;
  toMembers: number;
  toLeads: number;
  /** JSON array of lead stages (empty: any). */
  leadStages: string;
  recipients: number;
  members: number;
  leads: number;
  excluded: number;
  createdAt: string;
}
/** The outbox row of each recipient's text of a send. */
export interface MarketingSendTextTable {
  sendId: number;
  outboxId: number;
}
export interface ReferralRewardTable {
  id: Generated<number>;
  storeId: number;
  leadId: number;
  referrerMemberId: number;
  friendMemberId: number;
  /** 'class' (the friend's first class attended) | 'card' (their first card bought). */
  triggerOn: string;
  /** 'lessons' (classes on a 次卡) | 'days' (validity of a 期限卡) | 'money' (fen on a 储值卡). */
  kind: string;
  amount: number;
  /** 'pending' (no card of the kind yet) | 'granted' | 'undone'. */
  status: string;
  memberCardId: number | null;
  /** The card's `referral` ledger entry. */
  ledgerId: number | null;
  /** The card's `referral_undone` entry taking it back. */
  undoLedgerId: number | null;
  createdAt: string;
  grantedAt: string | null;
  undoneAt: string | null;
  undoneBy: number | null;
}
/** One follow-up of a lead (migration 20261207_1500). */
export interface LeadFollowUpTable {
  id: Generated<number>;
  storeId: number;
  leadId: number;
  staffId: number;
  /** 'phone' | 'wechat' | 'visit'. */
  way: string;
  note: string;
  nextDate: string | null;
  createdAt: string;
}
export interface MemberCardTable {
  id: Generated<number>;
  storeId: number;
  memberId: number;
  cardId: number;
  totalCount: number;
  usedCount: number;
  startTime: string | null;
  expireTime: string | null;
  frozen: number;
  createdAt: string;
  /** Set when the card was refunded whole (migration 1150): it books nothing any more. */
  refundedAt: string | null;
  /** When the card started (migration 20261129_0850; store-local); null: not yet (未开卡). */
  activateTime: string | null;
  /** The validity it was sold with, in days; null: never expires. Expiry = activation + validDays + leaveDays. */
  validDays: number | null;
  /** Days of leave taken (net of days given back by ending early). */
  leaveDays: Generated<number>;
  /** JSON `[[from, to], ...]` (`YYYY-MM-DD`) of its approved leaves, read with the card by the booking rules. */
  leavePeriods: Generated<string>;
  /** Set when the card was transferred to another member (issue 29 item 5). */
  transferredAt: string | null;
  /** JSON `[id, ...]`: the members besides the holder who book on it (`card_share`, migration 20261129_1200). */
  sharedWith: Generated<string>;
}
/** A member a shared family card names (多人共享, migration 20261129_1200). */
export interface CardShareTable {
  id: Generated<number>;
  storeId: number;
  memberCardId: number;
  memberId: number;
  operatorId: number | null;
  createdAt: string;
}
/** A leave (请假) of a card (migration 20261129_0850; status: contract LeaveStatus). */
export interface CardLeaveTable {
  id: Generated<number>;
  storeId: number;
  memberCardId: number;
  memberId: number;
  fromDate: string;
  toDate: string;
  days: number;
  reason: string;
  status: string;
  /** member | staff */
  requestedBy: string;
  staffId: number | null;
  /** Ended early: the last day of leave. */
  endedDate: string | null;
  createdAt: string;
  decidedAt: string | null;
  decidedBy: number | null;
  decideRemark: string | null;
  endedAt: string | null;
  endedBy: number | null;
}
export interface CardLedgerTable {
  id: Generated<number>;
  storeId: number;
  memberCardId: number;
  /** issue | topup | deduct | refund | adjust | card_refund (card refunded whole) | topup_refund | refund_undone (an online refund refused: put back) | referral (转介绍奖励) | referral_undone (the reward taken back) */
  kind: string;
  /** Change of usedCount (deduct > 0, refund < 0) or of totalCount (issue, topup > 0). */
  amount: number;
  reservationId: number | null;
  timetableId: number | null;
  operatorId: number | null;
  remark: string | null;
  createdAt: string;
  /** Who booked the class the entry is for (a shared card's user; migration 20261129_1200); null: no booking. */
  memberId: number | null;
}
/** Money taken for a card sale or top-up, or paid back for a card refund (fen, positive; migration 1100). */
export interface CardPaymentTable {
  id: Generated<number>;
  storeId: number;
  memberCardId: number;
  ledgerId: number | null;
  /** sale | topup | refund */
  kind: string;
  amount: number;
  /** cash | wechat | alipay | card | other */
  method: string;
  staffId: number | null;
  remark: string | null;
  createdAt: string;
  /** For a top-up refund: the ledger id of the top-up it pays back (unique: once). */
  refundOf: number | null;
  /** desk (前台) | online (线上, an order paid through a provider; migration 20261129_0100). */
  channel: Generated<string>;
  /** The online order that paid it (unique for its sale or top-up). */
  payOrderId: number | null;
  /** 销售员 of a sale or top-up, whom the commission counts (migration 20261206_2050); null: who took it. */
  sellerId: Generated<number | null>;
}
/** A store's online payment accounts (JSON with secrets inside: never answered) and top-up amounts. */
export interface PaySettingTable {
  storeId: number;
  wechat: string | null;
  alipay: string | null;
  topupAmounts: Generated<string>;
}
/** An online order (status: contract PAY_ORDER_STATUS codes). */
export interface PayOrderTable {
  id: Generated<number>;
  storeId: number;
  orderNo: string;
  memberId: number;
  /** card | topup */
  kind: string;
  productId: number | null;
  memberCardId: number | null;
  trial: Generated<number>;
  amount: number;
  refunded: Generated<number>;
  method: string;
  provider: string;
  description: string;
  status: Generated<number>;
  createdAt: string;
  expireAt: string;
  paidAt: string | null;
  closedAt: string | null;
  providerTradeId: string | null;
  /** The staff member who took it at the desk (扫码收款; migration 20261129_0300); null: the member's own. */
  staffId: number | null;
  /** The seller whose own link the member came through (migration 20261129_1000); null: none. */
  sellerId: Generated<number | null>;
  /** 异常订单 (migration 20261206_2010): why a paid order could not be fulfilled; kept after its refund. */
  exceptionReason: Generated<string | null>;
  /**
   * The member's signature of the card's contract before paying (JSON {at, ip, ua}; migration
   * 20261212_100); null: none (a top-up, the desk's 扫码收款).
   */
  contractSign: Generated<string | null>;
}
/** A staff member's own link to the members' page (migration 20261129_1000). */
export interface SellerLinkTable {
  storeId: number;
  staffId: number;
  code: string;
  createdAt: string;
}
/** One reconciliation of a store's provider bill day (migration 20261129_0800). */
export interface PayReconcileTable {
  id: Generated<number>;
  storeId: number;
  provider: string;
  billDate: string;
  /** running | done | failed */
  status: string;
  startedAt: string;
  finishedAt: string | null;
  matched: Generated<number>;
  differences: Generated<number>;
  /** JSON: the differences found ({orderNo, kind, local, provider, action}[]). */
  result: string | null;
  error: string | null;
}
/** A refund of an online order through its provider (migration 20261129_0400; status 0 退款中, 1 已退款, 2 退款失败, 3 退款异常: WeChat ABNORMAL, open). */
export interface PayRefundTable {
  id: Generated<number>;
  storeId: number;
  refundNo: string;
  payOrderId: number;
  /** Null: the refund of an 异常订单 (migration 20261206_2010), which changes no card. */
  memberCardId: number | null;
  amount: number;
  reason: string;
  status: Generated<number>;
  staffId: number | null;
  createdAt: string;
  settledAt: string | null;
  providerRefundId: string | null;
  failReason: string | null;
  /** The card change it made: its 退卡 (card_refund) or 充值退回 (topup_refund) ledger entry. */
  ledgerId: number | null;
  /** Once refused: the ledger entry putting the card back (refund_undone). */
  undoLedgerId: number | null;
  /** Answers of the provider that left it open (migration 20261206_2020): the settling job's backoff. */
  queries: Generated<number>;
  /** When the settling job may ask again (store-local wall time); null: once it is 2 minutes old. */
  nextQueryAt: string | null;
}
/** A member waiting for a seat of a full session (migration 1300; status: contract WaitStatus). */
export interface WaitlistTable {
  id: Generated<number>;
  storeId: number;
  timetableId: number;
  memberId: number;
  memberCardId: number;
  studentCount: number;
  status: number;
  operatorId: number | null;
  skipReason: string | null;
  reservationId: number | null;
  pendingId: number | null;
  createTime: string;
  endTime: string | null;
}
/** A once-a-day job of a store claimed for a local date (migration 1100). */
export interface DailyJobTable {
  storeId: number;
  kind: string;
  date: string;
  createdAt: number;
}
export interface TimetableTable extends AgeLimitColumns {
  id: Generated<number>;
  storeId: number;
  courseId: number;
  teacherId: number;
  areaId: number | null;
  bookId: number | null;
  startTime: string;
  endTime: string;
  reservableCount: number;
  realCount: number;
  /** Members waiting for a seat (migration 1300): the waiting rows of `waitlist`. */
  waitCount: Generated<number>;
  isOnline: number;
  meetingId: string | null;
  meetingInfo: string | null;
  meetingError: string | null;
  color: string;
  deleted: number;
  createdAt: string;
  /** A lesson's state (migration 20261207_0100): null for a group class; 'pending' 待确认 until `confirmDeadline`, or 'confirmed'. */
  appointmentStatus: 'pending' | 'confirmed' | null;
  confirmDeadline: string | null;
  /** Why the desk booked a lesson outside the offered slots. */
  outsideReason: string | null;
  /** The fixed weekly series (固定时段) a lesson belongs to. */
  seriesId: number | null;
}
export interface TimetableCardTable {
  storeId: number;
  timetableId: number;
  cardId: number;
}
export interface ReservationTable {
  id: Generated<number>;
  storeId: number;
  timetableId: number;
  memberId: number;
  memberCardId: number;
  pendingId: number | null;
  studentCount: number;
  usedCount: number;
  remark: string | null;
  operatorId: number | null;
  status: number;
  createTime: string;
  cancelTime: string | null;
  /** Deduction mode 0: the member checked in by themself (migration 0900). */
  attendedTime: string | null;
  /** 1: a member's late cancel that kept the deduction (迟到取消, migration 1500). */
  forfeited: Generated<number>;
  /** Staff waived the late cancel's deduction (refunded), and why. */
  waivedTime: string | null;
  waiveReason: string | null;
}
export interface PendingTable {
  id: Generated<number>;
  storeId: number;
  timetableId: number;
  memberId: number;
  studentCount: number;
  remark: string | null;
  status: number;
  operatorId: number | null;
  reservationId: number | null;
  createTime: string;
  cancelTime: string | null;
  /** A no-show's charge (count or fen; 0 when nothing could be charged), set by the job (migration 1400). */
  noShowFee: number | null;
  noShowCardId: number | null;
  /** Staff waived the no-show charge (refunded through the ledger), and why. */
  waivedTime: string | null;
  waiveReason: string | null;
  /** The card chosen when the seat was held, for a member's own check-in (migration 0900). */
  memberCardId: number | null;
}
export interface HistoryTable {
  id: Generated<number>;
  storeId: number;
  timetableId: number;
  memberId: number;
  memberCardId: number | null;
  reservationId: number | null;
  pendingId: number | null;
  studentCount: number;
  usedCount: number;
  operateType: number;
  operatorId: number | null;
  remark: string | null;
  /** A staff action outside the members' policy (migration 1400), e.g. 越过预约规则：开课前30分钟停止预约. */
  override: string | null;
  createTime: string;
}
export interface FixTimetableTable {
  id: Generated<number>;
  storeId: number;
  weekday: number;
  time: string;
  courseId: number;
  teacherId: number;
  areaId: number | null;
  bookId: number | null;
  reservableCount: number;
  createdAt: string;
}
export interface FixStudentTable {
  id: Generated<number>;
  storeId: number;
  fixId: number;
  memberCardId: number;
  studentCount: number;
}
/** How far an import or export has got (migration 20261129_1300; written on PostgreSQL only). */
export interface JobProgressTable {
  /** `<storeId>:<progress id>` */
  key: string;
  storeId: number;
  phase: string;
  done: number;
  total: number;
  updatedAt: number;
}
export interface OpLockTable {
  key: string;
  storeId: number;
  createdAt: number;
}
export interface OutboxTable {
  id: Generated<number>;
  storeId: number;
  topic: string;
  orderKey: string;
  payload: string;
  createdAt: number;
  nextAttemptAt: number;
  attempts: number;
  sentAt: number | null;
  lastError: string | null;
  /** Set when the worker gave up on the row (migration 0500). */
  deadAt: number | null;
}

/** Per-store data version: bumped by every write that changes the schedule calendar (migration 0200). */
export interface StoreVersionTable {
  storeId: number;
  version: number;
}

/** A teacher's pay rule from `fromDate` on, for one course or (courseId null) every course (migration 20261129_0860). */
export interface TeacherPayRuleTable {
  id: Generated<number>;
  storeId: number;
  teacherId: number;
  courseId: number | null;
  /** per_class | per_head_came | per_head_booked | tiered */
  kind: string;
  /** Fen: per class, or per head. */
  amount: number;
  /** JSON [{minHeads, amount}] for 'tiered'. */
  tiers: string | null;
  /** Which heads tiers count: came | booked. */
  heads: Generated<string>;
  minimum: Generated<number>;
  fromDate: string;
  updatedAt: string;
  /** Migration 20261210_100: 1 with no course, every 私教/小班 type of the teacher (全部私教/小班). */
  lessons: Generated<number>;
  /** A lesson rule for one teacher level only (null: any level). */
  level: 'junior' | 'senior' | 'master' | null;
}
/** An amount (fen, either sign) added to a teacher's month with its reason. */
export interface TeacherPayAdjustmentTable {
  id: Generated<number>;
  storeId: number;
  teacherId: number;
  month: string;
  amount: number;
  reason: string;
  staffId: number | null;
  createdAt: string;
}
/** A closed month (teacher pay or commission) with its statement as closed (JSON). */
export interface PayMonthCloseTable {
  storeId: number;
  /** teacher | commission */
  kind: string;
  month: string;
  closedBy: number | null;
  closedByName: string;
  closedAt: string;
  snapshot: string;
}
/** A staff member's sales commission, hundredths of a percent. */
export interface SalesCommissionRateTable {
  storeId: number;
  staffId: number;
  rateBp: number;
  updatedAt: string;
  /** Migration 20261210_100: fen for each lead of theirs converted (已成交) in a month. */
  perConversion: Generated<number>;
}
/** One reminder message to a member (migration 20261129_0900): unique by store and dedupe key. */
export interface NotifyLogTable {
  id: Generated<number>;
  storeId: number;
  memberId: number | null;
  kind: string;
  dedupeKey: string;
  /** wechat | sms | null */
  channel: string | null;
  /** queued | sending | sent | failed | skipped */
  status: string;
  reason: Generated<string>;
  dueAt: string;
  createdAt: string;
  sentAt: string | null;
  leaseUntil: number | null;
  payload: string;
  /** Sends tried (migration 20261129_1400): a passing failure is tried again until the last try. */
  tries: Generated<number>;
}
/** A kind of reminder a member switched off. */
export interface NotifyPrefTable {
  storeId: number;
  memberId: number;
  kind: string;
  off: Generated<number>;
}
/** A WeChat service account's access token, shared by every instance. */
export interface WechatTokenTable {
  appId: string;
  accessToken: Generated<string>;
  expiresAt: Generated<number>;
  refreshingUntil: Generated<number>;
}
export interface Database {
  store: StoreTable;
  staff: StaffTable;
  post: PostTable;
  httpSession: HttpSessionTable;
  memberLoginCode: MemberLoginCodeTable;
  memberSession: MemberSessionTable;
  wechatOauthState: WechatOauthStateTable;
  calendarFeed: CalendarFeedTable;
  loginCounter: LoginCounterTable;
  appSecret: AppSecretTable;
  storeModule: StoreModuleTable;
  storeSetting: StoreSettingTable;
  storeFile: StoreFileTable;
  area: AreaTable;
  teacher: TeacherTable;
  cardProduct: CardProductTable;
  course: CourseTable;
  courseCard: CourseCardTable;
  lessonTeacher: LessonTeacherTable;
  lessonPrice: LessonPriceTable;
  lessonRoom: LessonRoomTable;
  equipment: EquipmentTable;
  lessonEquipment: LessonEquipmentTable;
  teacherHours: TeacherHoursTable;
  teacherHoursException: TeacherHoursExceptionTable;
  material: MaterialTable;
  member: MemberTable;
  memberConsent: MemberConsentTable;
  erasureRequest: ErasureRequestTable;
  healthQuestionnaire: HealthQuestionnaireTable;
  contractTemplate: ContractTemplateTable;
  cardContract: CardContractTable;
  healthDeclaration: HealthDeclarationTable;
  lead: LeadTable;
  leadFollowUp: LeadFollowUpTable;
  leadConsent: LeadConsentTable;
  referralReward: ReferralRewardTable;
  marketingSend: MarketingSendTable;
  marketingSendText: MarketingSendTextTable;
  leadTrial: LeadTrialTable;
  memberCard: MemberCardTable;
  cardLedger: CardLedgerTable;
  cardLeave: CardLeaveTable;
  cardShare: CardShareTable;
  cardPayment: CardPaymentTable;
  teacherPayRule: TeacherPayRuleTable;
  teacherPayAdjustment: TeacherPayAdjustmentTable;
  payMonthClose: PayMonthCloseTable;
  salesCommissionRate: SalesCommissionRateTable;
  paySetting: PaySettingTable;
  payOrder: PayOrderTable;
  sellerLink: SellerLinkTable;
  payRefund: PayRefundTable;
  payReconcile: PayReconcileTable;
  waitlist: WaitlistTable;
  dailyJob: DailyJobTable;
  timetable: TimetableTable;
  timetableCard: TimetableCardTable;
  reservation: ReservationTable;
  pending: PendingTable;
  history: HistoryTable;
  fixTimetable: FixTimetableTable;
  fixStudent: FixStudentTable;
  opLock: OpLockTable;
  jobProgress: JobProgressTable;
  outbox: OutboxTable;
  storeVersion: StoreVersionTable;
  auditLog: AuditLogTable;
  auditTarget: AuditTargetTable;
  notifyLog: NotifyLogTable;
  notifyPref: NotifyPrefTable;
  wechatToken: WechatTokenTable;
}

export type Row<T extends keyof Database> = Selectable<Database[T]>;
export type NewRow<T extends keyof Database> = Insertable<Database[T]>;
export type RowUpdate<T extends keyof Database> = Updateable<Database[T]>;
