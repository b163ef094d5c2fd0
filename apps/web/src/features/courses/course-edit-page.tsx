import { RefMsg, type Course } from '@studio/contract';
import {
  Button,
  Card,
  ColorPicker,
  Form,
  Input,
  InputNumber,
  Radio,
  Select,
  Skeleton,
  Space,
  Switch,
  Typography,
  type ColorPickerProps,
} from 'antd';
import { useNavigate, useParams } from '../../shared/router.tsx';
import { Notice } from '../../shared/notice.tsx';
import { useCardProducts } from '../../shared/reference.ts';
import { AGE_LIMITS, GENDER_LIMITS } from './course-text.ts';
import { useCourse, useSaveCourse, useSetCourseEnabled } from './hooks.ts';

interface Values {
  name: string;
  count: number;
  duration: number;
  color: string | { toHexString(): string };
  cardIds: number[];
  genderLimit: 0 | 1 | 2;
  ageLimit: 0 | 1 | 2;
  syear?: number | null;
  smonth?: number | null;
  sday?: number | null;
  eyear?: number | null;
  emonth?: number | null;
  eday?: number | null;
  description?: string;
  /** 少儿课程: its booking receipt has a line for a parent's signature. */
  forChildren: boolean;
}

const DEFAULTS: Partial<Values> = {
  count: 20,
  duration: 60,
  color: '#1677ff',
  cardIds: [],
  genderLimit: 2,
  ageLimit: 0,
  forChildren: false,
};

/**
 * The colour picker of a required field: antd's Form.Item gives its child `aria-required`, which the
 * picker puts on a plain div (not allowed there); the asterisk of the label says it instead.
 */
function ColorField({ 'aria-required': _required, ...props }: ColorPickerProps & { 'aria-required'?: unknown }) {
  return <ColorPicker {...props} />;
}

const hex = (c: Values['color']) => (typeof c === 'string' ? c : c.toHexString()).slice(0, 7);
const num = (v: number | null | undefined) => (v === undefined || v === null ? null : v);

/** /course/edit/:id (0 creates): name, capacity, duration, colour, allowed cards, limits, enabled. */
export default function CourseEditPage() {
  const id = Number(useParams().id) || 0;
  const q = useCourse(id);
  if (id > 0 && q.isPending)
    return (
      <Card>
        <Skeleton active />
      </Card>
    );
  if (id > 0 && !q.data) return <Notice title="课程不存在" />;
  return <CourseForm key={id} course={q.data ?? null} />;
}

function CourseForm({ course }: { course: Course | null }) {
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const products = useCardProducts();
  const ageLimit = Form.useWatch('ageLimit', form);
  const save = useSaveCourse(course?.id ?? null);
  const status = useSetCourseEnabled();
  const onFinish = async (v: Values) => {
    const saved = await save.run({
      name: v.name,
      count: v.count,
      duration: v.duration,
      color: hex(v.color),
      cardIds: v.cardIds ?? [],
      genderLimit: v.genderLimit,
      ageLimit: v.ageLimit,
      syear: v.ageLimit ? num(v.syear) : null,
      smonth: v.ageLimit ? num(v.smonth) : null,
      sday: v.ageLimit === 2 ? num(v.sday) : null,
      eyear: v.ageLimit ? num(v.eyear) : null,
      emonth: v.ageLimit ? num(v.emonth) : null,
      eday: v.ageLimit === 2 ? num(v.eday) : null,
      description: v.description?.trim() || null,
      forChildren: !!v.forChildren,
    });
    if (saved) navigate('/course/list');
  };
  const initial: Partial<Values> = course
    ? ({
        ...course,
        cardIds: course.cards.map((c) => c.id),
        description: course.description ?? undefined,
      } as Partial<Values>)
    : DEFAULTS;

  return (
    <Card
      title={course ? `编辑课程：${course.name}` : '添加课程'}
      extra={
        course && (
          <Space>
            <Typography.Text type="secondary">启用</Typography.Text>
            <Switch
              aria-label="启用"
              checked={course.enabled === 1}
              loading={status.loading}
              onChange={(on) => void status.run(course.id, on ? 1 : 0)}
            />
          </Space>
        )
      }
    >
      <Form<Values>
        form={form}
        labelCol={{ span: 4 }}
        wrapperCol={{ span: 14 }}
        initialValues={initial}
        onFinish={onFinish}
        onFinishFailed={() => undefined}
      >
        <Form.Item
          label="课程名称"
          name="name"
          rules={[{ required: true, whitespace: true, message: RefMsg.courseName }]}
        >
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item
          label="默认上课人数"
          name="count"
          rules={[
            { required: true, message: RefMsg.courseCount },
            { type: 'integer', min: 0, max: 10_000, message: RefMsg.courseCount },
          ]}
        >
          <InputNumber precision={0} style={{ width: 200 }} suffix="人" />
        </Form.Item>
        <Form.Item
          label="课程时长"
          name="duration"
          rules={[
            { required: true, message: RefMsg.duration },
            { type: 'integer', min: 5, max: 600, message: RefMsg.duration },
          ]}
        >
          <InputNumber precision={0} style={{ width: 200 }} suffix="分钟" />
        </Form.Item>
        <Form.Item label="课程颜色" name="color" rules={[{ required: true, message: RefMsg.color }]}>
          <ColorField disabledAlpha showText format="hex" />
        </Form.Item>
        <Form.Item label="可预约的卡种" name="cardIds" extra="只有持这些卡种的会员可以预约此课程">
          <Select
            mode="multiple"
            allowClear
            loading={products.isPending}
            placeholder="选择卡种"
            optionFilterProp="label"
            options={(products.data ?? []).map((p) => ({ value: p.id, label: p.cardName }))}
          />
        </Form.Item>
        <Form.Item label="性别限制" name="genderLimit">
          <Radio.Group options={GENDER_LIMITS} />
        </Form.Item>
        <Form.Item label="年龄限制" name="ageLimit">
          <Radio.Group options={AGE_LIMITS} />
        </Form.Item>
        {ageLimit === 1 && (
          <Form.Item label="年龄范围" extra="留空表示不限；月份 0-11">
            <Space wrap>
              <Form.Item name="syear" noStyle>
                <InputNumber min={0} max={150} precision={0} suffix="岁" placeholder="起" aria-label="起始年龄" />
              </Form.Item>
              <Form.Item name="smonth" noStyle>
                <InputNumber min={0} max={11} precision={0} suffix="个月" aria-label="起始月份" />
              </Form.Item>
              至
              <Form.Item name="eyear" noStyle>
                <InputNumber min={0} max={150} precision={0} suffix="岁" placeholder="止" aria-label="截止年龄" />
              </Form.Item>
              <Form.Item name="emonth" noStyle>
                <InputNumber min={0} max={11} precision={0} suffix="个月" aria-label="截止月份" />
              </Form.Item>
            </Space>
          </Form.Item>
        )}
        {ageLimit === 2 && (
          <Form.Item label="出生日期范围" extra="留空的一端表示不限">
            <Space wrap>
              <BirthParts prefix="s" />
              至
              <BirthParts prefix="e" />
            </Space>
          </Form.Item>
        )}
        <Form.Item
          label="少儿课程"
          name="forChildren"
          valuePropName="checked"
          extra="开启后，这门课的预约小票上打印“家长签字”一栏"
        >
          <Switch aria-label="少儿课程" />
        </Form.Item>
        <Form.Item label="课程介绍" name="description">
          <Input.TextArea rows={3} maxLength={2000} />
        </Form.Item>
        <Form.Item wrapperCol={{ offset: 4 }}>
          <Space>
            <Button type="primary" htmlType="submit" loading={save.loading}>
              保存
            </Button>
            <Button onClick={() => navigate('/course/list')}>返回</Button>
          </Space>
        </Form.Item>
      </Form>
    </Card>
  );
}

function BirthParts({ prefix }: { prefix: 's' | 'e' }) {
  const which = prefix === 's' ? '起始' : '截止';
  return (
    <Space.Compact>
      <Form.Item name={`${prefix}year`} noStyle>
        <InputNumber
          min={1900}
          max={2200}
          precision={0}
          suffix="年"
          style={{ width: 100 }}
          aria-label={`${which}出生年`}
        />
      </Form.Item>
      <Form.Item name={`${prefix}month`} noStyle>
        <InputNumber min={1} max={12} precision={0} suffix="月" style={{ width: 80 }} aria-label={`${which}出生月`} />
      </Form.Item>
      <Form.Item name={`${prefix}day`} noStyle>
        <InputNumber min={1} max={31} precision={0} suffix="日" style={{ width: 80 }} aria-label={`${which}出生日`} />
      </Form.Item>
    </Space.Compact>
  );
}
