import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import {
  LESSON_KIND_LABEL,
  PAY_HEADS,
  PAY_HEADS_LABEL,
  PAY_RULE_KIND_LABEL,
  PAY_RULE_KINDS,
  PAY_TIERS_MAX,
  TEACHER_LEVEL_LABEL,
  TEACHER_LEVELS,
  TeacherPayMsg,
  type PayHeads,
  type PayRuleKind,
  type TeacherLevel,
} from '@studio/contract';
import { Button, DatePicker, Form, InputNumber, Radio, Select, Space, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from '../../shared/dayjs.ts';
import { FormModal } from '../../shared/form-modal.tsx';
import { toFen } from '../../shared/format.ts';
import { TeacherSelect } from '../../shared/pickers/teacher-select.tsx';
import { useCourseOptions, useLessonTypes } from '../../shared/reference.ts';
import { useSaveRule } from './hooks.ts';
import type { PayRule } from './types.ts';

/** The rule's scope as the form picks it: 全部课程, 全部私教/小班, or a course or lesson type (its id). */
type Scope = 'all' | 'lessons' | number;
/** 不限级别, or one teacher level (lesson scopes only). */
type LevelChoice = TeacherLevel | 'any';

interface Values {
  teacherId: number;
  scope: Scope;
  level: LevelChoice;
  kind: PayRuleKind;
  amount?: number;
  tiers?: { minHeads: number; amount: number }[];
  heads: PayHeads;
  minimum?: number;
  fromDate: Dayjs;
}

const KIND_HELP: Record<PayRuleKind, string> = {
  per_class: '每节课固定金额',
  per_head_came: '每位到课（签到或到店）的会员一份；小班按人头即用它',
  per_head_booked: '每个预约的座位一份（无论是否到课；迟到取消的不算）',
  tiered: '按人数落在哪一档，每节课拿该档的金额',
};

/** 适用范围: 全部课程, 全部私教/小班, then the group courses and the 私教/小班 types. */
function ScopeSelect(props: { value?: Scope; onChange?: (v: Scope) => void; disabled?: boolean; id?: string }) {
  const courses = useCourseOptions();
  const lessons = useLessonTypes();
  return (
    <Select<Scope>
      {...props}
      showSearch={{ optionFilterProp: 'label' }}
      loading={courses.isPending || lessons.isPending}
      options={[
        { value: 'all', label: '全部课程' },
        { value: 'lessons', label: '全部私教/小班' },
        {
          label: '团课',
          title: '团课',
          options: (courses.data ?? []).map((c) => ({ value: c.id, label: c.name })),
        },
        {
          label: '私教/小班',
          title: '私教/小班',
          options: (lessons.data ?? []).map((t) => ({
            value: t.id,
            label: `${t.name}（${LESSON_KIND_LABEL[t.kind]}）`,
          })),
        },
      ]}
    />
  );
}

const scopeOf = (r: PayRule): Scope => r.courseId ?? (r.lessons ? 'lessons' : 'all');

/**
 * 新增/修改课时费规则. A rule is a teacher's, for one course or all (or, for 私教/小班, one lesson
 * type or all of them, optionally at one teacher level), from a date on; editing keeps its teacher,
 * scope and start date (a change from another date is a new rule).
 */
export default function RuleFormModal({
  rule,
  teacherId,
  onClose,
}: {
  rule: PayRule | null;
  teacherId: number | null;
  onClose: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const save = useSaveRule();
  const kind = Form.useWatch('kind', form);
  const scope = Form.useWatch('scope', form);
  const lessonTypes = useLessonTypes();
  // A level only for a lesson scope: all 私教/小班, or a lesson type.
  const lessonType = typeof scope === 'number' ? lessonTypes.data?.find((t) => t.id === scope) : undefined;
  const forLessons = scope === 'lessons' || !!lessonType;
  const y = (fen: number) => fen / 100;
  const initial: Partial<Values> = rule
    ? {
        teacherId: rule.teacherId,
        scope: scopeOf(rule),
        level: rule.level ?? 'any',
        kind: rule.kind,
        amount: y(rule.amount),
        tiers: rule.tiers.map((t) => ({ minHeads: t.minHeads, amount: y(t.amount) })),
        heads: rule.heads,
        minimum: y(rule.minimum),
        fromDate: dayjs(rule.fromDate),
      }
    : {
        teacherId: teacherId ?? undefined,
        scope: 'all',
        level: 'any',
        kind: 'per_class',
        heads: 'came',
        minimum: 0,
        tiers: [{ minHeads: 1, amount: 0 }],
        fromDate: dayjs().startOf('month'),
      };
  const submit = (v: Values) =>
    save.run({
      teacherId: v.teacherId,
      courseId: typeof v.scope === 'number' ? v.scope : null,
      lessons: v.scope === 'lessons' ? 1 : 0,
      level: forLessons && v.level !== 'any' ? v.level : null,
      kind: v.kind,
      amount: v.kind === 'tiered' ? 0 : toFen(v.amount ?? 0),
      tiers: v.kind === 'tiered' ? (v.tiers ?? []).map((t) => ({ minHeads: t.minHeads, amount: toFen(t.amount) })) : [],
      heads: v.heads,
      minimum: toFen(v.minimum ?? 0),
      fromDate: v.fromDate.format('YYYY-MM-DD'),
    });
  return (
    <FormModal
      title={rule ? '修改课时费规则' : '新增课时费规则'}
      form={form}
      loading={save.loading}
      submit={submit}
      onCancel={onClose}
      width={560}
      destroyOnHidden
    >
      <Form<Values> form={form} layout="vertical" initialValues={initial} data-testid="pay-rule-form">
        <Form.Item label="老师" name="teacherId" rules={[{ required: true, message: TeacherPayMsg.chooseTeacher }]}>
          <TeacherSelect disabled={!!rule} />
        </Form.Item>
        <Form.Item
          label="适用课程"
          name="scope"
          extra="单独设置的课程优先于全部课程的规则；私教/小班依次看：该课程（老师级别）、该课程、全部私教/小班（老师级别）、全部私教/小班、全部课程"
        >
          <ScopeSelect disabled={!!rule} />
        </Form.Item>
        {forLessons && (
          <Form.Item
            label="老师级别"
            name="level"
            extra={
              lessonType
                ? `只用于老师按该级别上的课（各老师在该课程的级别：${
                    lessonType.teachers
                      .map((t) => `${t.name}${t.level ? TEACHER_LEVEL_LABEL[t.level] : '不分级别'}`)
                      .join('、') || '未设置'
                  }）`
                : '只用于老师按该级别上的私教/小班（老师在各课程的级别）'
            }
          >
            <Radio.Group
              optionType="button"
              disabled={!!rule}
              options={[
                { value: 'any', label: '不限级别' },
                ...TEACHER_LEVELS.map((l) => ({ value: l, label: TEACHER_LEVEL_LABEL[l] })),
              ]}
            />
          </Form.Item>
        )}
        <Form.Item
          label="生效日期"
          name="fromDate"
          extra="从这一天起的课按此规则计算，直到同一范围的下一条规则；不能在已结算关闭的月份内"
          rules={[{ required: true, message: TeacherPayMsg.fromDate }]}
        >
          <DatePicker disabled={!!rule} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item label="计费方式" name="kind" extra={kind ? KIND_HELP[kind] : undefined}>
          <Radio.Group
            optionType="button"
            options={PAY_RULE_KINDS.map((k) => ({ value: k, label: PAY_RULE_KIND_LABEL[k] }))}
          />
        </Form.Item>
        {kind !== 'tiered' ? (
          <Form.Item
            label={kind === 'per_class' ? '每节金额（元）' : '每人金额（元）'}
            name="amount"
            rules={[{ required: true, message: TeacherPayMsg.amount }]}
          >
            <InputNumber min={0} max={100_000} precision={2} suffix="元" style={{ width: 200 }} />
          </Form.Item>
        ) : (
          <>
            <Form.Item label="按哪种人数分档" name="heads">
              <Radio.Group options={PAY_HEADS.map((h) => ({ value: h, label: PAY_HEADS_LABEL[h] }))} />
            </Form.Item>
            <Typography.Text type="secondary">
              每档从几人起、每节课多少元（例如 1 人起 80 元，6 人起 120 元，11 人起 150 元）
            </Typography.Text>
            <Form.List
              name="tiers"
              rules={[
                {
                  validator: async (_, tiers: { minHeads?: number }[] | undefined) => {
                    if (!tiers?.length) throw new Error(TeacherPayMsg.tiersNeeded);
                    const starts = tiers.map((t) => t?.minHeads);
                    if (new Set(starts).size !== starts.length) throw new Error(TeacherPayMsg.tiersDuplicate);
                  },
                },
              ]}
            >
              {(fields, { add, remove }, { errors }) => (
                <div data-testid="pay-tiers" style={{ marginTop: 8 }}>
                  {fields.map((f, i) => (
                    <Space key={f.key} align="start" size={8}>
                      <Form.Item
                        name={[f.name, 'minHeads']}
                        rules={[{ required: true, message: TeacherPayMsg.tierHeads }]}
                        style={{ marginBottom: 8 }}
                      >
                        <InputNumber
                          min={1}
                          max={100_000}
                          precision={0}
                          suffix="人起"
                          aria-label={`第${i + 1}档起始人数`}
                          style={{ width: 130 }}
                        />
                      </Form.Item>
                      <Form.Item
                        name={[f.name, 'amount']}
                        rules={[{ required: true, message: TeacherPayMsg.amount }]}
                        style={{ marginBottom: 8 }}
                      >
                        <InputNumber
                          min={0}
                          max={100_000}
                          precision={2}
                          suffix="元/节"
                          aria-label={`第${i + 1}档金额`}
                          style={{ width: 150 }}
                        />
                      </Form.Item>
                      <Button
                        type="text"
                        aria-label={`删除第${i + 1}档`}
                        icon={<MinusCircleOutlined />}
                        onClick={() => remove(f.name)}
                      />
                    </Space>
                  ))}
                  <Form.ErrorList errors={errors} />
                  <Button
                    icon={<PlusOutlined />}
                    disabled={fields.length >= PAY_TIERS_MAX}
                    onClick={() => add({ minHeads: undefined, amount: undefined })}
                    style={{ marginBottom: 16 }}
                  >
                    添加一档
                  </Button>
                </div>
              )}
            </Form.List>
          </>
        )}
        <Form.Item label="每节保底（元）" name="minimum" extra="按规则算出的金额低于保底时按保底发，0 为不设保底">
          <InputNumber min={0} max={100_000} precision={2} suffix="元" style={{ width: 200 }} />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
