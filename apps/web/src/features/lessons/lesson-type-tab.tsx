import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import {
  LESSON_KIND_LABEL,
  LESSON_KINDS,
  LessonMsg,
  TEACHER_LEVEL_LABEL,
  TEACHER_LEVELS,
  type LessonKind,
  type LessonType,
  type TeacherLevel,
} from '@studio/contract';
import { Button, Form, Input, InputNumber, Radio, Select, Space, Switch, Table, Tag, TreeSelect } from 'antd';
import { useState } from 'react';
import { toFen, yuan } from '../../shared/format.ts';
import { FormModal } from '../../shared/form-modal.tsx';
import { useLessonTypes, useTeachers, useVenues, venueTreeData } from '../../shared/reference.ts';
import { useEquipment, useSaveLessonType, useSetLessonTypeEnabled } from './hooks.ts';

/** Minutes as staff read them: 90 → 1小时30分钟. */
export function minutesText(m: number): string {
  if (m === 0) return '不限';
  const d = Math.floor(m / 1440);
  const h = Math.floor((m % 1440) / 60);
  const min = m % 60;
  return `${d ? `${d}天` : ''}${h ? `${h}小时` : ''}${min ? `${min}分钟` : ''}`;
}

const priceText = (t: LessonType) =>
  t.prices.length
    ? t.prices.map((p) => `${p.level ? `${TEACHER_LEVEL_LABEL[p.level]} ` : ''}${yuan(p.price)}元`).join('，')
    : '-';

/** 私教/小班 → 课程: the lesson types with who gives them, their prices, rooms and machines; a switch enables one. */
export default function LessonTypeTab() {
  const q = useLessonTypes();
  const [editing, setEditing] = useState<LessonType | 'new' | null>(null);
  const [switching, setSwitching] = useState<number | null>(null);
  const status = useSetLessonTypeEnabled();
  const toggle = async (id: number, on: boolean) => {
    setSwitching(id);
    await status.run(id, on ? 1 : 0);
    setSwitching(null);
  };
  return (
    <>
      <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'flex-end' }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          添加私教/小班课
        </Button>
      </Space>
      <Table<LessonType>
        rowKey="id"
        size="middle"
        loading={q.isFetching}
        dataSource={q.data ?? []}
        // A wide table scrolls sideways once it has rows (an empty one would be a scroll area with nothing to reach).
        scroll={q.data?.length ? { x: 1080 } : undefined}
        pagination={{ pageSize: 10, showTotal: (n) => `共 ${n} 门` }}
        locale={{ emptyText: '还没有私教或小班课，点“添加私教/小班课”开始' }}
        columns={[
          {
            title: '课程名称',
            dataIndex: 'name',
            width: 160,
            render: (v: string, t) => (
              <Space>
                {v}
                <Tag color="blue">{LESSON_KIND_LABEL[t.kind]}</Tag>
              </Space>
            ),
          },
          { title: '人数与时长', width: 110, render: (_, t) => `${t.maxMembers}人 · ${t.duration}分钟` },
          {
            title: '授课老师',
            dataIndex: 'teachers',
            width: 180,
            render: (ts: LessonType['teachers']) => (
              <Space size={[0, 4]} wrap>
                {ts.map((t) => (
                  <Tag key={t.teacherId}>
                    {t.name}
                    {t.level ? `（${TEACHER_LEVEL_LABEL[t.level]}）` : ''}
                  </Tag>
                ))}
              </Space>
            ),
          },
          { title: '价格', width: 150, render: (_, t) => priceText(t) },
          {
            title: '场地与器械',
            width: 170,
            render: (_, t) =>
              [...t.areas.map((a) => a.name), ...t.equipment.map((e) => `${e.name} 每人${e.perMember}台`)].join('，') ||
              '-',
          },
          {
            title: '预约规则',
            width: 170,
            render: (_, t) => (
              <>
                <div>提前预约：{minutesText(t.minNoticeMinutes)}</div>
                <div>取消截止：{t.cancelCutoffMinutes ? `课前${minutesText(t.cancelCutoffMinutes)}` : '不限'}</div>
              </>
            ),
          },
          {
            title: '启用',
            dataIndex: 'enabled',
            width: 70,
            render: (v: number, t) => (
              <Switch
                size="small"
                aria-label={`启用${t.name}`}
                checked={v === 1}
                loading={switching === t.id}
                onChange={(on) => void toggle(t.id, on)}
              />
            ),
          },
          {
            title: '操作',
            width: 70,
            fixed: 'right',
            render: (_, t) => <a onClick={() => setEditing(t)}>编辑</a>,
          },
        ]}
      />
      {editing && <LessonTypeModal type={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </>
  );
}

interface Values {
  name: string;
  kind: LessonKind;
  maxMembers?: number;
  duration: number;
  /** Hours (the form's unit); minutes on the wire. */
  minNoticeHours: number;
  cancelCutoffHours: number;
  slotStep: 15 | 30;
  teachers: { teacherId?: number; level?: TeacherLevel | null }[];
  /** Yuan by level ('' : the one price of a type without levels). */
  prices: Partial<Record<TeacherLevel | 'none', number | null>>;
  areaIds: number[];
  equipment: { equipmentId?: number; perMember?: number }[];
}

const MAX_HOURS = 30 * 24;
const hoursRule = (message: string) => ({ type: 'number' as const, min: 0, max: MAX_HOURS, message });

function LessonTypeModal({ type, onClose }: { type: LessonType | null; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const save = useSaveLessonType(type?.id ?? null);
  const teachers = useTeachers();
  const venues = useVenues();
  const equipment = useEquipment();
  const kind = Form.useWatch('kind', form) ?? type?.kind ?? 'one_on_one';
  const chosen = Form.useWatch('teachers', form) ?? [];
  const levels = TEACHER_LEVELS.filter((l) => chosen.some((t) => t?.level === l));

  const initial: Values = type
    ? {
        name: type.name,
        kind: type.kind,
        maxMembers: type.maxMembers,
        duration: type.duration,
        minNoticeHours: type.minNoticeMinutes / 60,
        cancelCutoffHours: type.cancelCutoffMinutes / 60,
        slotStep: type.slotStep === 15 ? 15 : 30,
        teachers: type.teachers.map((t) => ({ teacherId: t.teacherId, level: t.level })),
        prices: Object.fromEntries(type.prices.map((p) => [p.level ?? 'none', p.price / 100])),
        areaIds: type.areas.map((a) => a.id),
        equipment: type.equipment.map((e) => ({ equipmentId: e.equipmentId, perMember: e.perMember })),
      }
    : {
        name: '',
        kind: 'one_on_one',
        maxMembers: 4,
        duration: 60,
        minNoticeHours: 2,
        cancelCutoffHours: 12,
        slotStep: 30,
        teachers: [{}],
        prices: {},
        areaIds: [],
        equipment: [],
      };

  const submit = (v: Values) => {
    const used = TEACHER_LEVELS.filter((l) => v.teachers.some((t) => t.level === l));
    const prices = used.length
      ? used.map((l) => ({ level: l, price: toFen(v.prices[l] ?? 0) }))
      : v.prices.none != null
        ? [{ level: null, price: toFen(v.prices.none) }]
        : [];
    return save.run({
      name: v.name,
      kind: v.kind,
      maxMembers: v.kind === 'small_group' ? v.maxMembers : undefined,
      duration: v.duration,
      minNoticeMinutes: Math.round(v.minNoticeHours * 60),
      cancelCutoffMinutes: Math.round(v.cancelCutoffHours * 60),
      slotStep: v.slotStep,
      teachers: v.teachers.map((t) => ({ teacherId: t.teacherId!, level: t.level ?? null })),
      prices,
      areaIds: v.areaIds ?? [],
      equipment: (v.equipment ?? []).map((e) => ({ equipmentId: e.equipmentId!, perMember: e.perMember ?? 1 })),
      ...(type ? { color: type.color, description: type.description } : {}),
    });
  };

  return (
    <FormModal
      title={type ? '编辑私教/小班课' : '添加私教/小班课'}
      form={form}
      loading={save.loading}
      submit={submit}
      onCancel={onClose}
      width={680}
      nameInvalid
    >
      <Form<Values> form={form} layout="vertical" initialValues={initial}>
        <Form.Item
          label="课程名称"
          name="name"
          rules={[{ required: true, whitespace: true, message: LessonMsg.typeName }]}
        >
          <Input maxLength={50} />
        </Form.Item>
        <Space size="large" align="start" wrap>
          <Form.Item label="上课形式" name="kind" rules={[{ required: true, message: LessonMsg.kind }]}>
            <Radio.Group
              optionType="button"
              options={LESSON_KINDS.map((k) => ({ value: k, label: LESSON_KIND_LABEL[k] }))}
            />
          </Form.Item>
          {kind === 'small_group' && (
            <Form.Item
              label="每节最多人数"
              name="maxMembers"
              rules={[{ required: true, type: 'number', min: 2, max: 6, message: LessonMsg.maxMembers }]}
            >
              <InputNumber precision={0} suffix="人" style={{ width: 120 }} />
            </Form.Item>
          )}
          <Form.Item
            label="课时长度"
            name="duration"
            rules={[{ required: true, type: 'number', min: 30, max: 180, message: LessonMsg.duration }]}
          >
            <InputNumber precision={0} step={15} suffix="分钟" style={{ width: 140 }} />
          </Form.Item>
          <Form.Item label="可约时间间隔" name="slotStep" extra="会员可选的开始时间每隔多久一个">
            <Radio.Group
              options={[
                { value: 15, label: '15分钟' },
                { value: 30, label: '30分钟' },
              ]}
            />
          </Form.Item>
        </Space>
        <Space size="large" align="start" wrap>
          <Form.Item
            label="最少提前预约"
            name="minNoticeHours"
            extra="开课前多久之内不能再约"
            rules={[{ required: true, message: LessonMsg.minNotice }, hoursRule(LessonMsg.minNotice)]}
          >
            <InputNumber precision={1} step={1} suffix="小时" style={{ width: 160 }} />
          </Form.Item>
          <Form.Item
            label="取消截止"
            name="cancelCutoffHours"
            extra="开课前多久之内取消算作已上课（扣课）"
            rules={[{ required: true, message: LessonMsg.cancelCutoff }, hoursRule(LessonMsg.cancelCutoff)]}
          >
            <InputNumber precision={1} step={1} suffix="小时" style={{ width: 160 }} />
          </Form.Item>
        </Space>

        <Form.List
          name="teachers"
          rules={[
            {
              validator: async (_, ts: Values['teachers'] | undefined) => {
                if (!ts?.length) throw new Error(LessonMsg.teachers);
              },
            },
          ]}
        >
          {(fields, { add, remove }, { errors }) => (
            <Form.Item label="授课老师" required extra="可给每位老师定级别，不同级别按不同价格收费">
              {fields.map((f) => (
                <Space key={f.key} align="baseline" style={{ display: 'flex' }}>
                  <Form.Item
                    name={[f.name, 'teacherId']}
                    rules={[{ required: true, message: '请选择老师' }]}
                    style={{ marginBottom: 8 }}
                  >
                    <Select
                      aria-label={`授课老师${f.name + 1}`}
                      placeholder="选择老师"
                      showSearch
                      optionFilterProp="label"
                      style={{ width: 200 }}
                      loading={teachers.isPending}
                      options={(teachers.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
                    />
                  </Form.Item>
                  <Form.Item name={[f.name, 'level']} style={{ marginBottom: 8 }}>
                    <Select
                      aria-label={`老师级别${f.name + 1}`}
                      placeholder="不分级别"
                      allowClear
                      style={{ width: 140 }}
                      options={TEACHER_LEVELS.map((l) => ({ value: l, label: TEACHER_LEVEL_LABEL[l] }))}
                    />
                  </Form.Item>
                  {fields.length > 1 && (
                    <Button
                      type="text"
                      aria-label="移除该老师"
                      icon={<MinusCircleOutlined />}
                      onClick={() => remove(f.name)}
                    />
                  )}
                </Space>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({})}>
                添加老师
              </Button>
              <Form.ErrorList errors={errors} />
            </Form.Item>
          )}
        </Form.List>

        <Form.Item label="单节价格（储值卡按此扣款）" style={{ marginBottom: 0 }}>
          <Space size="large" wrap>
            {levels.length ? (
              levels.map((l) => (
                <Form.Item
                  key={l}
                  label={`${TEACHER_LEVEL_LABEL[l]}老师`}
                  name={['prices', l]}
                  rules={[
                    { required: true, message: LessonMsg.priceMissing(TEACHER_LEVEL_LABEL[l]) },
                    { type: 'number', min: 0, max: 100_000, message: LessonMsg.price },
                  ]}
                >
                  <InputNumber precision={2} suffix="元" style={{ width: 160 }} />
                </Form.Item>
              ))
            ) : (
              <Form.Item
                label="价格"
                name={['prices', 'none']}
                rules={[{ type: 'number', min: 0, max: 100_000, message: LessonMsg.price }]}
              >
                <InputNumber precision={2} suffix="元" style={{ width: 160 }} placeholder="不填表示不能用储值卡" />
              </Form.Item>
            )}
          </Space>
        </Form.Item>

        <Form.Item label="上课场地" name="areaIds" extra="不选表示不占用场地；选多个时预约会占用其中空闲的一个">
          <TreeSelect
            multiple
            allowClear
            treeDefaultExpandAll
            placeholder="不占用场地"
            loading={venues.isPending}
            treeData={venueTreeData(venues.data)}
          />
        </Form.Item>

        <Form.List name="equipment">
          {(fields, { add, remove }) => (
            <Form.Item label="需要的器械" extra="每位会员占用的器械数量，约满时不再开放预约">
              {fields.map((f) => (
                <Space key={f.key} align="baseline" style={{ display: 'flex' }}>
                  <Form.Item
                    name={[f.name, 'equipmentId']}
                    rules={[{ required: true, message: '请选择器械' }]}
                    style={{ marginBottom: 8 }}
                  >
                    <Select
                      aria-label={`器械${f.name + 1}`}
                      placeholder="选择器械"
                      style={{ width: 200 }}
                      loading={equipment.isPending}
                      options={(equipment.data ?? []).map((e) => ({
                        value: e.id,
                        label: `${e.name}（共${e.count}台）`,
                      }))}
                    />
                  </Form.Item>
                  <Form.Item
                    name={[f.name, 'perMember']}
                    rules={[{ required: true, type: 'number', min: 1, max: 20, message: LessonMsg.perMember }]}
                    style={{ marginBottom: 8 }}
                  >
                    <InputNumber aria-label={`每人占用${f.name + 1}`} precision={0} prefix="每人" suffix="台" />
                  </Form.Item>
                  <Button
                    type="text"
                    aria-label="移除该器械"
                    icon={<MinusCircleOutlined />}
                    onClick={() => remove(f.name)}
                  />
                </Space>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ perMember: 1 })}>
                添加器械
              </Button>
            </Form.Item>
          )}
        </Form.List>
      </Form>
    </FormModal>
  );
}
