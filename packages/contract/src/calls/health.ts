// 健康声明 (issue 45, item 3): a questionnaire the manager sets (versioned), answered by the member on
// their phone before their first class and yearly after, only with their separate consent to the
// store keeping health information (CONSENT 'health'). A "yes" marks the member for the staff (健康提示
// in the session drawer); the answers themselves only for the manager and the member's teachers, and
// only when the member allowed it; the desk sees the mark only. Withdrawing the consent or deleting
// the account deletes the answers. Server: features/privacy (health-*.ts).
import { z } from 'zod';
import { zEmpty, zId, zText } from '../common.ts';
import { defineCall, fails, Roles, STORE_API } from '../define.ts';
import { MEMBER_API, MemberMsg } from './member-channel.ts';

/** The questions a store starts with (its questionnaire's version 1) until the manager saves its own. */
export const HEALTH_DEFAULT_QUESTIONS = [
  '是否有心脏病，或运动时胸闷、心慌？',
  '是否有高血压或低血压？',
  '是否怀孕，或在产后六个月内？',
  '近六个月内是否受过伤或做过手术？',
  '是否有其他需要老师知道的身体情况？',
] as const;

/** A declaration holds this many months; then the member is asked again. */
export const HEALTH_VALID_MONTHS = 12;
export const HEALTH_MAX_QUESTIONS = 20;
export const HEALTH_QUESTION_MAX = 100;
export const HEALTH_NOTE_MAX = 300;

/** What the member agrees to before the form (the 'health' consent). */
export const HEALTH_CONSENT_TEXT = [
  '健康信息属于敏感个人信息。门店只为安排你安全上课而保存你的健康声明。',
  '回答了「是」的，给你上课的老师和店长会看到「健康提示」标记；具体回答只有在你允许时，店长和你的老师才能看到，前台看不到。',
  '你可以随时在「我的 → 个人信息」撤回同意，撤回或删除账号后门店会删除你的健康声明。',
] as const;

export const HealthMsg = {
  consent: '请先同意门店保存你的健康信息，再填写健康声明',
  answers: '请回答每一个问题（是或否）',
  changed: '健康声明的问题已更新，请刷新后重新填写',
  /** A member books while the store requires a declaration and theirs is missing or too old. */
  required: MemberMsg.healthRequired,
  questions: '请至少填写一个问题',
  questionEmpty: '问题不能为空',
  notTheirs: '只能查看自己课上会员的健康信息',
} as const;

export const zHealthAnswer = z.object({ question: z.string(), yes: z.boolean() });
export type HealthAnswer = z.infer<typeof zHealthAnswer>;

/** The questionnaire in force: its version and questions (version 1 the defaults until saved). */
export const zHealthQuestionnaire = z.object({ version: z.number(), questions: z.array(z.string()) });

export const zHealthDeclaration = z.object({
  answeredAt: z.string(),
  /** The questionnaire's version it answered. */
  version: z.number(),
  answers: z.array(zHealthAnswer),
  note: z.string().nullable(),
  /** The member lets the manager and their teachers see the answers (else the mark only). */
  shareDetails: z.boolean(),
  /** Some answer is yes. */
  flagged: z.boolean(),
});
export type HealthDeclaration = z.infer<typeof zHealthDeclaration>;

export const memberMyHealth = defineCall({
  path: `${MEMBER_API}/query/my/health`,
  kind: 'read',
  auth: 'member',
  req: zEmpty,
  res: z.object({
    /** The store asks for a declaration before booking (上课前须填写健康声明). */
    required: z.boolean(),
    questionnaire: zHealthQuestionnaire,
    /** The member's current 'health' consent. */
    consent: z.boolean(),
    declaration: zHealthDeclaration.nullable(),
    /** No declaration in the last 12 months (or, when the store asks, none under the current questions). */
    due: z.boolean(),
  }),
  summary: '会员端：健康声明的问题、我是否同意保存健康信息、我最近一次的声明、是否需要填写',
  example: {},
});

export const memberSubmitHealth = defineCall({
  path: `${MEMBER_API}/add/my/health`,
  kind: 'write',
  auth: 'member',
  req: z.object({
    /** The questionnaire's version the form showed (a newer one: refused, the page reloads). */
    version: z.number().int().min(1),
    /** One per question, in order. */
    answers: z.array(z.boolean({ error: HealthMsg.answers }), { error: HealthMsg.answers }).max(HEALTH_MAX_QUESTIONS),
    note: zText(HEALTH_NOTE_MAX).nullish(),
    shareDetails: z.boolean({ error: '请选择是否允许老师查看具体情况' }),
  }),
  res: z.object({ flagged: z.boolean() }),
  summary: '会员端：填写健康声明（须先同意保存健康信息）；有回答「是」的，老师和店长看到健康提示',
  example: { version: 1, answers: [false, false, false, true, false], note: '膝盖做过手术', shareDetails: true },
  errors: [...fails.badRequest(HealthMsg.answers), ...fails.conflict(HealthMsg.consent, HealthMsg.changed)],
});

export const queryHealthSetting = defineCall({
  path: `${STORE_API}/query/health/setting`,
  kind: 'read',
  auth: 'store',
  roles: Roles.manager,
  req: zEmpty,
  res: zHealthQuestionnaire.extend({
    required: z.boolean(),
    /** A new version of the questions asks every member again (else a declaration holds 12 months). */
    reanswer: z.boolean(),
  }),
  summary: '健康声明设置：问题（版本）、上课前是否须填写、改问题后是否要求重新填写',
  example: {},
});

export const updateHealthSetting = defineCall({
  path: `${STORE_API}/update/health/setting`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({
    questions: z
      .array(z.string().trim().min(1, HealthMsg.questionEmpty).max(HEALTH_QUESTION_MAX), {
        error: HealthMsg.questions,
      })
      .min(1, HealthMsg.questions)
      .max(HEALTH_MAX_QUESTIONS, `最多${HEALTH_MAX_QUESTIONS}个问题`),
    required: z.boolean(),
    reanswer: z.boolean(),
  }),
  res: z.object({ version: z.number() }),
  summary: '保存健康声明设置：问题有变化时生成新版本（已填的声明保留其版本）',
  example: { questions: [...HEALTH_DEFAULT_QUESTIONS], required: true, reanswer: false },
});

export const queryHealthFlags = defineCall({
  path: `${STORE_API}/query/health/flags`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  teacherOwns: { field: 'tid', via: 'session' },
  req: z.object({ tid: zId() }),
  /** The members booked or waiting for sign-in in the session whose declaration has a yes. */
  res: z.array(z.number()),
  idFields: ['tid'],
  summary: '一节课里有健康提示的会员（其健康声明有回答「是」）',
  example: { tid: 1 },
  errors: fails.notFound('课程'),
});

export const queryMemberHealth = defineCall({
  path: `${STORE_API}/query/member/health`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  req: z.object({ mid: zId() }),
  res: z.object({
    flagged: z.boolean(),
    answeredAt: z.string().nullable(),
    due: z.boolean(),
    /** The member allowed their answers to be seen (by the manager and their teachers). */
    shared: z.boolean(),
    /** The answers and note: for the manager and the member's teachers when shared; else null. */
    details: z.object({ version: z.number(), answers: z.array(zHealthAnswer), note: z.string().nullable() }).nullable(),
  }),
  idFields: ['mid'],
  summary: '会员的健康提示；具体回答只给店长和该会员的上课老师看，且须会员允许（前台只看到提示）',
  example: { mid: 1 },
  errors: [...fails.notFound('会员'), { status: 403, msg: HealthMsg.notTheirs }],
});

export const healthCalls = [
  memberMyHealth,
  memberSubmitHealth,
  queryHealthSetting,
  updateHealthSetting,
  queryHealthFlags,
  queryMemberHealth,
] as const;
