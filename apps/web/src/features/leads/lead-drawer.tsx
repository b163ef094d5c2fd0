import {
  LEAD_CONSENT_WAY_LABEL,
  LEAD_STAFF_CONSENT_WAYS,
  LEAD_MANUAL_STAGES,
  LEAD_STAGE_LABEL,
  LEAD_WAY_LABEL,
  LEAD_WAYS,
  LeadMsg,
  updateLeadOwner,
  type LeadConsent,
  type LeadWay,
} from '@studio/contract';
import {
  Alert,
  Button,
  DatePicker,
  Descriptions,
  Divider,
  Drawer,
  Empty,
  Form,
  Input,
  Radio,
  Select,
  Space,
  Spin,
  Timeline,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useCan, useProfile } from '../../shared/profile.ts';
import { useSellers } from '../../shared/reference.ts';
import { Link } from '../../shared/router.tsx';
import { useStoreClock } from '../../shared/store-time.ts';
import { useAssignLeads, useFollowUp, useLeadConsent, useLeadInfo, useLeadStage, useTakeLead } from './hooks.ts';
import LeadFormModal from './lead-form-modal.tsx';
import { LeadTrials } from './lead-trials.tsx';
import { SourceText, StageTag } from './lead-labels.tsx';

interface FollowValues {
  way: LeadWay;
  note: string;
  nextDate?: Dayjs | null;
}
interface StageValues {
  stage: (typeof LEAD_MANUAL_STAGES)[number];
  lostReason?: string;
}

/** A lead: its fields, what may be done (follow up, stage, take, assign) and its follow-ups. */
export default function LeadDrawer({
  id,
  onClose,
  onShow,
}: {
  id: number;
  onClose: () => void;
  /** Show another lead instead (this one was merged into it). */
  onShow: (id: number) => void;
}) {
  const q = useLeadInfo(id);
  const l = q.data;
  const me = useProfile().data;
  const manager = useCan(updateLeadOwner);
  const [editing, setEditing] = useState(false);
  const mine = !!l && (manager || l.ownerId === me?.id);
  const open = !!l && l.stage !== 'won';
  return (
    <Drawer open width={560} title={l ? `潜客 ${l.name}` : '潜客'} onClose={onClose} destroyOnHidden>
      {!l ? (
        <Spin />
      ) : (
        <>
          {l.memberId !== null && (
            <Alert
              type="success"
              showIcon
              style={{ marginBottom: 12 }}
              message={
                <span>
                  已是会员：
                  <Link to={`/member/detail?member_id=${l.memberId}`} style={{ textDecoration: 'underline' }}>
                    查看会员
                  </Link>
                </span>
              }
            />
          )}
          <div data-testid="lead-fields">
            <Descriptions size="small" column={2} bordered>
              <Descriptions.Item label="姓名">{l.name}</Descriptions.Item>
              <Descriptions.Item label="手机号">{l.mobile}</Descriptions.Item>
              <Descriptions.Item label="来源">
                <SourceText lead={l} />
              </Descriptions.Item>
              <Descriptions.Item label="阶段">
                <StageTag stage={l.stage} />
                {l.lostReason && `（${l.lostReason}）`}
              </Descriptions.Item>
              <Descriptions.Item label="跟进人">{l.ownerName ?? '公海'}</Descriptions.Item>
              <Descriptions.Item label="下次跟进">{l.nextFollowUp ?? '未定'}</Descriptions.Item>
              <Descriptions.Item label="意向" span={2}>
                {l.interests || '-'}
              </Descriptions.Item>
              <Descriptions.Item label="备注" span={2}>
                <span style={{ whiteSpace: 'pre-wrap' }}>{l.notes || '-'}</span>
              </Descriptions.Item>
              <Descriptions.Item label="新增时间" span={2}>
                {l.createdAt}
              </Descriptions.Item>
            </Descriptions>
          </div>
          <Space style={{ marginTop: 12 }} wrap>
            {mine && <Button onClick={() => setEditing(true)}>编辑</Button>}
            {l.ownerId === null && <TakeButton id={l.id} />}
          </Space>
          {manager && <Assign id={l.id} ownerId={l.ownerId} />}
          {mine && open && (
            <>
              <Divider titlePlacement="start">修改阶段</Divider>
              <StageForm id={l.id} stage={l.stage} />
              <Divider titlePlacement="start">记录跟进</Divider>
              <FollowUpForm id={l.id} />
            </>
          )}
          <Divider titlePlacement="start">营销短信</Divider>
          <MarketingConsent id={l.id} consents={l.consents} mine={mine} />
          <Divider titlePlacement="start">体验课</Divider>
          <LeadTrials leadId={l.id} trials={l.trials} mine={mine} open={open && l.stage !== 'lost'} />
          <Divider titlePlacement="start">跟进记录</Divider>
          {l.followUps.length === 0 ? (
            <Empty description="还没有跟进记录" />
          ) : (
            <div data-testid="lead-follow-ups">
              <Timeline
                items={l.followUps.map((f) => ({
                  children: (
                    <div>
                      <div>
                        {f.createdAt.slice(0, 16)} · {f.staffName} · {LEAD_WAY_LABEL[f.way]}
                      </div>
                      <div style={{ whiteSpace: 'pre-wrap' }}>{f.note}</div>
                      {f.nextDate && <div>下次跟进：{f.nextDate}</div>}
                    </div>
                  ),
                }))}
              />
            </div>
          )}
        </>
      )}
      {editing && l && (
        <LeadFormModal
          lead={l}
          onClose={(newId) => {
            setEditing(false);
            // Merged into the lead that had the new mobile: show that one.
            if (newId && newId !== id) onShow(newId);
          }}
        />
      )}
    </Drawer>
  );
}

const consentText = (c: LeadConsent) =>
  `${c.granted ? '已同意' : '已撤回'}（${LEAD_CONSENT_WAY_LABEL[c.way]}，${c.at.slice(0, 16)}${c.staffName ? `，${c.staffName}登记` : ''}）`;

/** The lead's marketing consent (the latest choice, and the earlier ones) and, on one's own lead, recording it. */
function MarketingConsent({ id, consents, mine }: { id: number; consents: LeadConsent[]; mine: boolean }) {
  const set = useLeadConsent();
  const [way, setWay] = useState<(typeof LEAD_STAFF_CONSENT_WAYS)[number]>('visit');
  const [latest, ...earlier] = consents;
  return (
    <div data-testid="lead-consent">
      <div>{latest ? consentText(latest) : '未征得同意（不会收到营销短信）'}</div>
      {earlier.length > 0 && (
        <div style={{ color: 'rgba(0,0,0,0.65)', fontSize: 12 }}>此前：{earlier.map(consentText).join('；')}</div>
      )}
      {mine && (
        <Space style={{ marginTop: 8 }} wrap>
          <Radio.Group
            aria-label="登记方式"
            value={way}
            onChange={(e) => setWay(e.target.value as typeof way)}
            options={LEAD_STAFF_CONSENT_WAYS.map((w) => ({ value: w, label: LEAD_CONSENT_WAY_LABEL[w] }))}
          />
          <Button loading={set.loading} onClick={() => void set.run({ id, granted: true, way })}>
            登记同意
          </Button>
          {latest?.granted && (
            <Button loading={set.loading} onClick={() => void set.run({ id, granted: false, way })}>
              登记撤回
            </Button>
          )}
        </Space>
      )}
    </div>
  );
}

function TakeButton({ id }: { id: number }) {
  const take = useTakeLead();
  return (
    <Button type="primary" loading={take.loading} onClick={() => void take.run(id)}>
      领取
    </Button>
  );
}

/** The manager's 分配: to a staff member, or back to the pool. */
function Assign({ id, ownerId }: { id: number; ownerId: number | null }) {
  const sellers = useSellers();
  const assign = useAssignLeads();
  const [to, setTo] = useState<number | null>(ownerId);
  return (
    <Space style={{ marginTop: 12, display: 'flex' }} wrap>
      <span>分配给</span>
      <Select
        aria-label="分配给"
        data-testid="lead-assign"
        style={{ width: 180 }}
        value={to}
        onChange={setTo}
        options={[{ value: null, label: '公海' }, ...(sellers.data ?? []).map((s) => ({ value: s.id, label: s.name }))]}
      />
      <Button
        loading={assign.loading}
        disabled={to === ownerId}
        onClick={() => void assign.run({ ids: [id], ownerId: to })}
      >
        确定分配
      </Button>
    </Space>
  );
}

function StageForm({ id, stage }: { id: number; stage: string }) {
  const [form] = Form.useForm<StageValues>();
  const set = useLeadStage();
  const chosen = Form.useWatch('stage', form);
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (v) await set.run({ id, stage: v.stage, lostReason: v.stage === 'lost' ? v.lostReason : null });
  };
  return (
    <Form<StageValues>
      form={form}
      layout="inline"
      initialValues={{ stage: (LEAD_MANUAL_STAGES as readonly string[]).includes(stage) ? stage : undefined }}
    >
      <Form.Item name="stage" label="阶段" rules={[{ required: true, message: LeadMsg.stage }]}>
        <Select
          data-testid="lead-stage"
          style={{ width: 140 }}
          options={LEAD_MANUAL_STAGES.map((s) => ({ value: s, label: LEAD_STAGE_LABEL[s] }))}
        />
      </Form.Item>
      {chosen === 'lost' && (
        <Form.Item
          name="lostReason"
          label="流失原因"
          rules={[{ required: true, whitespace: true, message: LeadMsg.lostReason }]}
        >
          <Input maxLength={200} style={{ width: 180 }} />
        </Form.Item>
      )}
      <Form.Item>
        <Button loading={set.loading} onClick={() => void submit()}>
          保存阶段
        </Button>
      </Form.Item>
    </Form>
  );
}

function FollowUpForm({ id }: { id: number }) {
  const [form] = Form.useForm<FollowValues>();
  const follow = useFollowUp();
  const clock = useStoreClock();
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const r = await follow.run({
      leadId: id,
      way: v.way,
      note: v.note,
      nextDate: v.nextDate ? v.nextDate.format('YYYY-MM-DD') : null,
    });
    if (r) form.resetFields();
  };
  return (
    <Form<FollowValues> form={form} layout="vertical" initialValues={{ way: 'phone' }}>
      <Form.Item name="way" label="方式" rules={[{ required: true, message: LeadMsg.way }]}>
        <Radio.Group options={LEAD_WAYS.map((w) => ({ value: w, label: LEAD_WAY_LABEL[w] }))} />
      </Form.Item>
      <Form.Item name="note" label="跟进内容" rules={[{ required: true, whitespace: true, message: LeadMsg.note }]}>
        <Input.TextArea rows={2} maxLength={500} />
      </Form.Item>
      <Form.Item name="nextDate" label="下次跟进日期">
        <DatePicker disabledDate={(d) => d.format('YYYY-MM-DD') < clock.today()} />
      </Form.Item>
      <Button type="primary" loading={follow.loading} onClick={() => void submit()}>
        记录跟进
      </Button>
    </Form>
  );
}
