import {
  amountText,
  BIG_TYPE_MONEY,
  PAY_HEADS_LABEL,
  PAY_RULE_KIND_LABEL,
  type PayHeads,
  type PayRuleKind,
  type PayTier,
  type TeacherLevel,
} from '@studio/contract';

/** A pay rule as the statement applies it. */
export interface PayRuleFacts {
  id: number;
  teacherId: number;
  /** null: every course of the teacher (or every lesson type, when `lessons`). */
  courseId: number | null;
  /** With no course: the rule is for every 私教/小班 type of the teacher, not for group classes. */
  lessons: boolean;
  /** A lesson rule for this teacher level only (null: any). */
  level: TeacherLevel | null;
  kind: PayRuleKind;
  amount: number;
  /** Ascending by minHeads. */
  tiers: PayTier[];
  heads: PayHeads;
  minimum: number;
  fromDate: string;
}

/** A 私教/小班 lesson as the rules see it: the teacher's level for its type (null: none set). */
export interface LessonFacts {
  level: TeacherLevel | null;
}

/**
 * How closely a rule fits a class (0 the closest; undefined: the rule does not pay it). A group
 * class: its course's own rule, then the teacher's all-courses rule. A lesson (`lesson` given): its
 * type's rule for the teacher's level, its type's rule for any level, the all-lessons rule for the
 * level, the all-lessons rule for any level, then the all-courses rule. A rule for another level,
 * and a lesson rule for a group class, pays nothing.
 */
function fit(r: PayRuleFacts, courseId: number, lesson: LessonFacts | undefined): number | undefined {
  if (r.level !== null && (!lesson || r.level !== lesson.level)) return undefined;
  const levelled = r.level !== null ? 0 : 1;
  if (r.courseId === courseId) return levelled;
  if (r.courseId !== null) return undefined;
  if (r.lessons) return lesson ? 2 + levelled : undefined;
  return 4;
}

/**
 * The rule that pays a teacher's class (or lesson) of `courseId` on `date`: among the teacher's
 * rules that have started by then (fromDate <= date), those that fit it best (`fit`: a course's own
 * rule overrides the teacher's wider rules whatever their dates), the latest of them. `rules` are the
 * teacher's.
 */
export function ruleFor(
  rules: readonly PayRuleFacts[],
  courseId: number,
  date: string,
  lesson?: LessonFacts,
): PayRuleFacts | undefined {
  let best: PayRuleFacts | undefined;
  let bestFit = Infinity;
  for (const r of rules) {
    if (r.fromDate > date) continue;
    const f = fit(r, courseId, lesson);
    if (f === undefined) continue;
    if (f < bestFit || (f === bestFit && r.fromDate > best!.fromDate)) {
      best = r;
      bestFit = f;
    }
  }
  return best;
}

/** The tier a head count falls in: the one with the highest start at or below it (none below the first). */
export function tierFor(tiers: readonly PayTier[], heads: number): PayTier | undefined {
  let best: PayTier | undefined;
  for (const t of tiers) if (t.minHeads <= heads && (!best || t.minHeads > best.minHeads)) best = t;
  return best;
}

/** Fen a class pays under a rule: by its kind, then at least the rule's minimum. */
export function classPay(rule: PayRuleFacts, heads: { booked: number; came: number }): number {
  let pay: number;
  switch (rule.kind) {
    case 'per_class':
      pay = rule.amount;
      break;
    case 'per_head_came':
      pay = rule.amount * heads.came;
      break;
    case 'per_head_booked':
      pay = rule.amount * heads.booked;
      break;
    case 'tiered':
      pay = tierFor(rule.tiers, rule.heads === 'booked' ? heads.booked : heads.came)?.amount ?? 0;
      break;
  }
  return Math.max(pay, rule.minimum);
}

const yuan = (fen: number) => amountText(BIG_TYPE_MONEY, fen);

/** A rule in staff words: 按节固定 80.00 元 / 按到课人数 20.00 元/人 / 按人数阶梯（到课人数）1人起 80.00 元… ，保底 50.00 元. */
export function ruleSummary(rule: Pick<PayRuleFacts, 'kind' | 'amount' | 'tiers' | 'heads' | 'minimum'>): string {
  const label = PAY_RULE_KIND_LABEL[rule.kind];
  let text: string;
  if (rule.kind === 'per_class') text = `${label} ${yuan(rule.amount)}`;
  else if (rule.kind === 'tiered') {
    const tiers = [...rule.tiers].sort((a, b) => a.minHeads - b.minHeads);
    text = `${label}（${PAY_HEADS_LABEL[rule.heads]}）${tiers.map((t) => `${t.minHeads}人起 ${yuan(t.amount)}`).join('，')}`;
  } else text = `${label} ${yuan(rule.amount)}/人`;
  return rule.minimum > 0 ? `${text}，保底 ${yuan(rule.minimum)}` : text;
}

/** Tiers as stored (JSON, ascending) and read back. */
export const tiersToJson = (tiers: readonly PayTier[]) =>
  JSON.stringify(
    [...tiers].sort((a, b) => a.minHeads - b.minHeads).map((t) => ({ minHeads: t.minHeads, amount: t.amount })),
  );
export const tiersOf = (json: string | null): PayTier[] => (json ? (JSON.parse(json) as PayTier[]) : []);

/** Commission in fen: net money x rate (hundredths of a percent), rounded half away from zero. */
export function commissionOf(net: number, rateBp: number): number {
  const product = net * rateBp;
  const whole = Math.floor((Math.abs(product) + 5_000) / 10_000);
  return product < 0 ? -whole : whole;
}
