import { PlusOutlined } from '@ant-design/icons';
import {
  ACTIVATE_WITHIN_DAYS_DEFAULT,
  BIG_TYPE_COUNT,
  CARD_ACTIVATION_NAMES,
  CARD_TYPE_NO_EXPIRY,
  CardMsg,
  deleteCardProduct,
  insertCardProduct,
  LessonMsg,
  OnlineSaleMsg,
  RefMsg,
  TEACHER_LEVEL_LABEL,
  TEACHER_LEVELS,
  updateCardProduct,
} from '@studio/contract';
import { Alert, Button, Form, Input, InputNumber, Radio, Select, Space, Switch, Table, Tag } from 'antd';
import { useState } from 'react';
import dayjs from '../../shared/dayjs.ts';
import { DeleteLink } from '../../shared/delete-link.tsx';
import { amountText, unitOf, yuan } from '../../shared/format.ts';
import { FormModal } from '../../shared/form-modal.tsx';
import { useCan } from '../../shared/profile.ts';
import {
  useCardProducts,
  useCourseOptions,
  useLessonTypes,
  useOnlinePayOn,
  useTeachers,
} from '../../shared/reference.ts';
import {
  useDeleteCardProduct,
  useSaveCardProduct,
  type CardProduct as Product,
  type ProductFields as Values,
} from './hooks.ts';
import { ProductLifeFields } from './product-life-fields.tsx';

/**
 * The card products: count or money cards, expiry kind, per-class charge, price, courses. Products
 * and prices are the manager's: the desk reads them.
 */
export default function ProductTab() {
  const canAdd = useCan(insertCardProduct);
  const canEdit = useCan(updateCardProduct);
  const canDelete = useCan(deleteCardProduct);
  const q = useCardProducts();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Product | 'new' | null>(null);
  const del = useDeleteCardProduct();
  const teachers = useTeachers();
  const rows = (q.data ?? []).filter((p) => !search || p.cardName.includes(search));
  // Products on sale online while the store takes no payment online: members see none of them.
  const payOn = useOnlinePayOn(canEdit);
  const unseen = payOn === false && (q.data ?? []).some((p) => p.onlineSale === 1);
  return (
    <>
      {unseen && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="online-sale-unseen"
          message={`有卡种设为线上售卖，但${OnlineSaleMsg.noChannel}：请到「在线收款」开启微信支付或支付宝`}
        />
      )}
      <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
        <Input.Search allowClear placeholder="卡种名称" onSearch={setSearch} style={{ width: 220 }} />
        {canAdd && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            添加卡种
          </Button>
        )}
      </Space>
      <Table<Product>
        rowKey="id"
        size="middle"
        loading={q.isFetching}
        dataSource={rows}
        pagination={{ pageSize: 10, showTotal: (n) => `共 ${n} 种` }}
        columns={[
          { title: '卡种名称', dataIndex: 'cardName', sorter: (a, b) => a.cardName.localeCompare(b.cardName, 'zh') },
          {
            title: '类别',
            dataIndex: 'bigType',
            width: 90,
            render: (v: number) =>
              v === BIG_TYPE_COUNT ? <Tag color="blue">次卡</Tag> : <Tag color="gold">储值卡</Tag>,
          },
          {
            title: '有效期',
            dataIndex: 'cardType',
            width: 100,
            render: (v: number) => (v === CARD_TYPE_NO_EXPIRY ? '永久有效' : '有期限'),
          },
          {
            title: '每次扣除',
            dataIndex: 'perCount',
            width: 110,
            render: (v: number, p) => amountText(p.bigType, v),
          },
          {
            title: '价格',
            dataIndex: 'price',
            width: 120,
            sorter: (a, b) => a.price - b.price,
            render: (v: number, p) => (
              <>
                {yuan(v)} 元
                {p.onlineSale === 1 && (
                  <div>
                    <Tag color="green">线上 {yuan(p.onlinePrice)} 元</Tag>
                    {payOn === false && (
                      <Tag color="warning" data-testid="online-sale-unseen-tag">
                        {OnlineSaleMsg.noChannel}
                      </Tag>
                    )}
                    {p.trial === 1 && <Tag color="purple">体验卡</Tag>}
                  </div>
                )}
              </>
            ),
          },
          {
            title: '开卡与规则',
            width: 180,
            render: (_: unknown, p: Product) => (
              <Space size={[0, 4]} wrap>
                {p.activation !== 'sale' && <Tag color="cyan">{CARD_ACTIVATION_NAMES[p.activation]}</Tag>}
                {p.leaveAllowed === 1 && <Tag>可请假</Tag>}
                {p.maxPerDay != null && <Tag>每日≤{p.maxPerDay}</Tag>}
                {p.maxPerWeek != null && <Tag>每周≤{p.maxPerWeek}</Tag>}
                {p.refundFeePercent > 0 && <Tag>退卡费{p.refundFeePercent}%</Tag>}
                {p.shareMax > 0 && <Tag color="blue">可共享{p.shareMax}人</Tag>}
              </Space>
            ),
          },
          {
            title: '可预约课程',
            dataIndex: 'courses',
            render: (cs: Product['courses'], p) => (
              <>
                {cs.length ? cs.map((c) => <Tag key={c.id}>{c.name}</Tag>) : '-'}
                {packTeacherText(p, teachers.data) && <Tag color="purple">{packTeacherText(p, teachers.data)}</Tag>}
              </>
            ),
          },
          ...(canEdit || canDelete
            ? [
                {
                  title: '操作',
                  width: 120,
                  render: (_: unknown, p: Product) => (
                    <Space>
                      {canEdit && <a onClick={() => setEditing(p)}>编辑</a>}
                      {canDelete && (
                        <DeleteLink
                          title={`确定停用卡种 ${p.cardName} 吗？已发出的会员卡不受影响。`}
                          onConfirm={() => del.run(p.id)}
                        />
                      )}
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
      {editing && <ProductModal product={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </>
  );
}

/** 私教课包 bound to a teacher or a level: 仅限老师：王老师 / 仅限导师级别老师 (null: any teacher). */
function packTeacherText(p: Product, teachers: { id: number; name: string }[] | undefined): string | null {
  if (p.teacherId != null) return `仅限老师：${teachers?.find((t) => t.id === p.teacherId)?.name ?? ''}`;
  return p.teacherLevel ? `仅限${TEACHER_LEVEL_LABEL[p.teacherLevel]}级别老师` : null;
}

function ProductModal({ product, onClose }: { product: Product | null; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const courses = useCourseOptions();
  const lessonTypes = useLessonTypes();
  const teachers = useTeachers();
  const lessonTypeIds = Form.useWatch('lessonTypeIds', form) ?? [];
  const packBy = Form.useWatch('packBy', form) ?? 'any';
  const bigType = Form.useWatch('bigType', form) ?? product?.bigType ?? BIG_TYPE_COUNT;
  const isCount = bigType === BIG_TYPE_COUNT;
  const cardType = Form.useWatch('cardType', form) ?? product?.cardType ?? 1;
  const onlineSale = Form.useWatch('onlineSale', form) ?? product?.onlineSale === 1;
  const payOn = useOnlinePayOn();
  // The server's refusal names a field (线上售卖 without what members need): shown there, scrolled to.
  const save = useSaveCardProduct(product, (msg) => {
    const field = (['totalCount', 'validDays', 'onlinePrice'] as const).find(
      (f) => msg === (f === 'totalCount' ? OnlineSaleMsg.totalCount(bigType) : OnlineSaleMsg[f]),
    );
    if (!field) return;
    form.setFields([{ name: field, errors: [msg] }]);
    form.scrollToField(field, { block: 'center', behavior: 'smooth' });
  });
  // A lesson type is a course of its own kind: the product's courses split into group courses and lesson types.
  const isLessonType = (id: number) => (lessonTypes.data ?? []).some((t) => t.id === id);
  const options = (courses.data ?? []).map((c) => ({ value: c.id, label: c.name }));
  for (const c of product?.courses ?? []) {
    if (!isLessonType(c.id) && !options.some((o) => o.value === c.id)) options.push({ value: c.id, label: c.name });
  }
  const lessonOptions = (lessonTypes.data ?? [])
    .filter((t) => t.enabled === 1 || product?.courses.some((c) => c.id === t.id))
    .map((t) => ({ value: t.id, label: t.name }));
  // The split needs the lesson types: the form waits for them.
  if (lessonTypes.isPending) return null;
  const initial: Partial<Values> = product
    ? {
        cardName: product.cardName,
        bigType: product.bigType as 1 | 2,
        cardType: product.cardType as 1 | 2,
        perCount: product.bigType === BIG_TYPE_COUNT ? product.perCount : product.perCount / 100,
        price: product.price / 100,
        totalCount:
          product.totalCount == null
            ? undefined
            : product.bigType === BIG_TYPE_COUNT
              ? product.totalCount
              : product.totalCount / 100,
        validDays: product.validDays ?? undefined,
        courseIds: product.courses.filter((c) => !isLessonType(c.id)).map((c) => c.id),
        lessonTypeIds: product.courses.filter((c) => isLessonType(c.id)).map((c) => c.id),
        packBy: product.teacherId != null ? 'teacher' : product.teacherLevel ? 'level' : 'any',
        teacherId: product.teacherId,
        teacherLevel: product.teacherLevel,
        onlineSale: product.onlineSale === 1,
        onlinePrice: product.onlinePrice ? product.onlinePrice / 100 : undefined,
        trial: product.trial === 1,
        activation: product.activation,
        activationDate: product.activationDate ? dayjs(product.activationDate) : null,
        lateSaleStartsToday: product.lateSaleStartsToday === 1,
        activateWithinDays: product.activateWithinDays,
        leaveAllowed: product.leaveAllowed === 1,
        leaveTimes: product.leaveTimes,
        leaveDaysMax: product.leaveDaysMax,
        leaveDaysTotal: product.leaveDaysTotal,
        maxPerDay: product.maxPerDay,
        maxPerWeek: product.maxPerWeek,
        refundFeePercent: product.refundFeePercent,
        shareMax: product.shareMax,
      }
    : {
        bigType: 1,
        cardType: 1,
        perCount: 1,
        courseIds: [],
        lessonTypeIds: [],
        packBy: 'any',
        onlineSale: false,
        trial: false,
        activation: 'sale',
        lateSaleStartsToday: false,
        activateWithinDays: ACTIVATE_WITHIN_DAYS_DEFAULT,
        leaveAllowed: false,
        refundFeePercent: 0,
        shareMax: 0,
      };
  return (
    <FormModal
      title={product ? '编辑卡种' : '添加卡种'}
      form={form}
      loading={save.loading}
      submit={save.run}
      onCancel={onClose}
      width={640}
      nameInvalid
    >
      <Form<Values> form={form} layout="vertical" initialValues={initial}>
        <Form.Item
          label="卡种名称"
          name="cardName"
          rules={[{ required: true, whitespace: true, message: RefMsg.cardName }]}
        >
          <Input maxLength={50} />
        </Form.Item>
        <Space size="large">
          <Form.Item label="类别" name="bigType">
            <Radio.Group
              options={[
                { value: 1, label: '次卡' },
                { value: 2, label: '储值卡' },
              ]}
            />
          </Form.Item>
          <Form.Item label="有效期" name="cardType">
            <Radio.Group
              options={[
                { value: 1, label: '有期限' },
                { value: 2, label: '永久有效' },
              ]}
            />
          </Form.Item>
        </Space>
        <Space size="large" align="start">
          <Form.Item
            label="每人每节课扣除"
            name="perCount"
            rules={[
              { required: true, message: '请输入每次扣除数量' },
              { type: 'number', min: 0, message: '每次扣除数量不能小于0' },
            ]}
          >
            <InputNumber precision={isCount ? 0 : 2} style={{ width: 200 }} suffix={unitOf(bigType)} />
          </Form.Item>
          <Form.Item
            label="价格"
            name="price"
            rules={[
              { required: true, message: '请输入价格' },
              { type: 'number', min: 0, message: '价格不能小于0' },
            ]}
          >
            <InputNumber precision={2} style={{ width: 200 }} suffix="元" />
          </Form.Item>
        </Space>
        <Space size="large" align="start">
          <Form.Item
            label={isCount ? '卡内次数（发卡时默认）' : '卡内金额（发卡时默认）'}
            name="totalCount"
            dependencies={['onlineSale']}
            rules={[
              { type: 'number', min: 0, message: '卡内数量不能小于0' },
              {
                required: onlineSale,
                type: 'number',
                min: onlineSale ? (isCount ? 1 : 0.01) : 0,
                message: OnlineSaleMsg.totalCount(bigType),
              },
            ]}
          >
            <InputNumber precision={isCount ? 0 : 2} style={{ width: 200 }} suffix={unitOf(bigType)} />
          </Form.Item>
          {cardType !== CARD_TYPE_NO_EXPIRY && (
            <Form.Item
              label="有效天数（发卡时默认）"
              name="validDays"
              dependencies={['onlineSale']}
              rules={[
                { type: 'number', min: 1, max: 3650, message: CardMsg.validDays },
                { required: onlineSale, message: OnlineSaleMsg.validDays },
              ]}
            >
              <InputNumber precision={0} style={{ width: 200 }} suffix="天" />
            </Form.Item>
          )}
        </Space>
        <Form.Item label="可预约的课程" name="courseIds">
          <Select mode="multiple" allowClear optionFilterProp="label" loading={courses.isPending} options={options} />
        </Form.Item>
        <Form.Item
          label="可预约的私教/小班课"
          name="lessonTypeIds"
          extra="选择后即为私教课包，可限定授课老师或老师级别"
        >
          <Select mode="multiple" allowClear optionFilterProp="label" options={lessonOptions} />
        </Form.Item>
        {lessonTypeIds.length > 0 && (
          <Space size="large" align="start" wrap>
            <Form.Item label="授课老师" name="packBy">
              <Radio.Group
                options={[
                  { value: 'any', label: '不限' },
                  { value: 'teacher', label: '指定老师' },
                  { value: 'level', label: '指定级别' },
                ]}
              />
            </Form.Item>
            {packBy === 'teacher' && (
              <Form.Item label="老师" name="teacherId" rules={[{ required: true, message: '请选择老师' }]}>
                <Select
                  showSearch
                  optionFilterProp="label"
                  style={{ width: 200 }}
                  options={(teachers.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
                />
              </Form.Item>
            )}
            {packBy === 'level' && (
              <Form.Item label="老师级别" name="teacherLevel" rules={[{ required: true, message: LessonMsg.level }]}>
                <Select
                  style={{ width: 160 }}
                  options={TEACHER_LEVELS.map((l) => ({ value: l, label: TEACHER_LEVEL_LABEL[l] }))}
                />
              </Form.Item>
            )}
          </Space>
        )}
        <OnlineSaleFields
          on={onlineSale}
          payOn={payOn}
          onSwitch={(on) => {
            // 线上价格 starts at the product's price.
            if (on && form.getFieldValue('onlinePrice') == null)
              form.setFieldValue('onlinePrice', form.getFieldValue('price'));
          }}
        />
        <ProductLifeFields expires={cardType !== CARD_TYPE_NO_EXPIRY} />
      </Form>
    </FormModal>
  );
}

/**
 * 线上售卖: members may buy the product on their phone (会员约课页面 → 购卡) at its online price; a
 * card bought online starts with the balance and valid days above. 体验卡 sells once per member.
 */
function OnlineSaleFields({
  on,
  payOn,
  onSwitch,
}: {
  on: boolean;
  /** Whether the store takes payments online (undefined: not known yet). */
  payOn: boolean | undefined;
  onSwitch: (on: boolean) => void;
}) {
  return (
    <>
      <Form.Item
        label="线上售卖"
        name="onlineSale"
        valuePropName="checked"
        extra="开启后，会员可在手机上购买（付款渠道在 在线收款 中开启）"
      >
        <Switch onChange={onSwitch} />
      </Form.Item>
      {on && payOn === false && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="online-sale-no-channel"
          message={OnlineSaleMsg.noChannel}
          description="本店还没有开启微信支付或支付宝，会员在手机上看不到“购卡”。请到「在线收款」开启后再上架。"
        />
      )}
      {on && (
        <Space size="large" align="start">
          <Form.Item
            label="线上价格"
            name="onlinePrice"
            rules={[
              { required: true, message: OnlineSaleMsg.onlinePrice },
              { type: 'number', min: 0.01, message: OnlineSaleMsg.onlinePrice },
            ]}
          >
            <InputNumber precision={2} style={{ width: 200 }} suffix="元" />
          </Form.Item>
          <Form.Item
            label="体验卡"
            name="trial"
            valuePropName="checked"
            extra="每位会员限购一次"
            style={{ minWidth: 200 }}
          >
            <Switch />
          </Form.Item>
        </Space>
      )}
    </>
  );
}
