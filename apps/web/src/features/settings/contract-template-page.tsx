import {
  CONTRACT_BODY_MAX,
  CONTRACT_DEFAULT_BODY,
  CONTRACT_DEFAULT_TITLE,
  CONTRACT_FIELD_KEYS,
  CONTRACT_FIELD_LABELS,
  CONTRACT_FIELDS,
  CONTRACT_LICENCE_MAX,
  CONTRACT_TITLE_MAX,
  ContractMsg,
  contractFieldProblem,
  queryContractTemplate,
  renderContract,
  updateContractTemplate,
  type ContractField,
} from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Form, Input, Modal, Row, Skeleton, Space, Switch, Table, Tag, Typography } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { useEffect, useRef, useState } from 'react';
import { call } from '../../api/client.ts';
import { keys } from '../../shared/query-keys.ts';
import { useWrite } from '../../shared/use-write.ts';

interface Values {
  title: string;
  body: string;
  licenceName: string;
  /** 未签约的卡可以预约. */
  unsignedMayBook: boolean;
}

/** What the preview fills the fields with: a sale as a member would see it. */
const SAMPLE: Record<ContractField, string> = {
  studio: '（本店名称）',
  licence: '（经营者名称）',
  member: '张三',
  mobile: '13800138000',
  product: '瑜伽十次卡',
  cardKind: '次卡',
  price: '1200.00 元',
  amount: '10 次',
  validity: '至 2027-06-30',
  activation: '售卡即开卡',
  stores: '（本店名称）',
  leave: '可请假：次数2次，每次最多14天，累计最多不限；请假期间不能预约，有效期顺延请假天数。',
  transfer: '乙方可将本卡转让给他人，转让须到店办理，门店可按公示标准收取手续费。',
  refund: '乙方可申请退卡，按未使用部分占比退还实付金额，不收手续费（金额按分计算，不足 1 分的部分舍去）。',
  coolingOff: '7',
  saleDate: '2026-12-08',
};

/**
 * 合同模板 (店长): the contract every card sale produces, with fields filled per sale. Saving a changed
 * title or text makes a new version; cards sold before keep the version they were sold under.
 */
export default function ContractTemplatePage() {
  const [viewing, setViewing] = useState<number | null>(null);
  const q = useQuery({ queryKey: keys.contractTemplate(), queryFn: () => call(queryContractTemplate, {}) });
  const save = useWrite((v: Values) => call(updateContractTemplate, v), {
    success: '合同模板已保存',
    changes: 'storeSetting',
  });
  const [form] = Form.useForm<Values>();
  const body = Form.useWatch('body', form) ?? '';
  const title = Form.useWatch('title', form) ?? '';
  const area = useRef<TextAreaRef>(null);
  useEffect(() => {
    if (q.data) {
      form.setFieldsValue({
        title: q.data.template.title,
        body: q.data.template.body,
        licenceName: q.data.licenceName,
        unsignedMayBook: q.data.unsignedMayBook,
      });
    }
  }, [q.data, form]);

  /** Puts `{{label}}` where the cursor is in the text (at its end when it has none). */
  const insert = (key: ContractField) => {
    const el = area.current?.resizableTextArea?.textArea;
    const text: string = form.getFieldValue('body') ?? '';
    const at = el ? el.selectionStart : text.length;
    const end = el ? el.selectionEnd : text.length;
    const token = `{{${CONTRACT_FIELDS[key]}}}`;
    form.setFieldValue('body', text.slice(0, at) + token + text.slice(end));
    void form.validateFields(['body']);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(at + token.length, at + token.length);
    });
  };

  const d = q.data;
  return (
    <Card title="合同模板" extra={d && <Tag color="blue">在用：第 {d.current} 版</Tag>}>
      {!d ? (
        <Skeleton active />
      ) : (
        <Row gutter={24}>
          <Col span={14}>
            <Typography.Paragraph type="secondary">
              每次售卡（前台开卡或会员在手机上购卡，导入的卡除外）都按当时在用的版本生成这张卡的合同，花括号里的字段按这次售卡填写。修改标题或正文后保存会生成新版本，之前售出的卡仍按原来的版本。
            </Typography.Paragraph>
            <Form<Values> form={form} layout="vertical" onFinish={(v) => void save.run(v)} data-testid="contract-form">
              <Form.Item
                name="licenceName"
                label="经营者名称（营业执照上的名称）"
                extra="不填时合同中使用门店名称"
                rules={[{ max: CONTRACT_LICENCE_MAX, message: ContractMsg.licence }]}
              >
                <Input maxLength={CONTRACT_LICENCE_MAX} placeholder="例如：某某健身服务有限公司" />
              </Form.Item>
              <Form.Item
                name="unsignedMayBook"
                label="未签约的卡可以预约"
                valuePropName="checked"
                extra="关闭后，合同待签约的会员卡不能预约团课和私教，会员签署后即可预约"
              >
                <Switch checkedChildren="可以" unCheckedChildren="不可以" data-testid="unsigned-may-book" />
              </Form.Item>
              <Form.Item
                name="title"
                label="合同标题"
                rules={[{ required: true, whitespace: true, message: ContractMsg.title }]}
              >
                <Input maxLength={CONTRACT_TITLE_MAX} />
              </Form.Item>
              <Form.Item label="插入字段（点一下插入到光标处）">
                <Space wrap size={[6, 6]} data-testid="contract-fields">
                  {CONTRACT_FIELD_KEYS.map((k) => (
                    <Tag key={k} color="geekblue" style={{ cursor: 'pointer' }} onClick={() => insert(k)}>
                      {CONTRACT_FIELDS[k]}
                    </Tag>
                  ))}
                </Space>
              </Form.Item>
              <Form.Item
                name="body"
                label="合同正文"
                rules={[
                  { required: true, whitespace: true, message: ContractMsg.body },
                  {
                    validator: async (_, v: string | undefined) => {
                      // the fields the contract does not know, checked as the server checks them
                      const problem = contractFieldProblem(v ?? '', CONTRACT_FIELD_LABELS);
                      if (problem) throw new Error(problem);
                    },
                  },
                ]}
              >
                <Input.TextArea ref={area} rows={18} maxLength={CONTRACT_BODY_MAX} showCount />
              </Form.Item>
              <Space>
                <Button type="primary" htmlType="submit" loading={save.loading}>
                  保存
                </Button>
                <Button
                  onClick={() => form.setFieldsValue({ title: CONTRACT_DEFAULT_TITLE, body: CONTRACT_DEFAULT_BODY })}
                >
                  恢复默认合同
                </Button>
              </Space>
            </Form>
          </Col>
          <Col span={10}>
            <Typography.Title level={5}>预览（按示例填写）</Typography.Title>
            <div
              data-testid="contract-preview"
              tabIndex={0}
              role="region"
              aria-label="合同预览"
              style={{
                whiteSpace: 'pre-wrap',
                lineHeight: 1.8,
                border: '1px solid #f0f0f0',
                borderRadius: 6,
                padding: 16,
                maxHeight: 560,
                overflowY: 'auto',
              }}
            >
              <div style={{ textAlign: 'center', fontWeight: 600, fontSize: 16, marginBottom: 8 }}>{title}</div>
              {renderContract(body, SAMPLE, CONTRACT_FIELDS)}
            </div>
            <Typography.Title level={5} style={{ marginTop: 24 }}>
              历史版本
            </Typography.Title>
            <Table
              size="small"
              rowKey="version"
              pagination={false}
              data-testid="contract-versions"
              dataSource={d.versions}
              locale={{ emptyText: '还没有保存过，正在使用默认合同（第 1 版）' }}
              columns={[
                { title: '版本', dataIndex: 'version', render: (v: number) => `第 ${v} 版` },
                { title: '保存时间', dataIndex: 'createdAt', render: (v: string) => v.slice(0, 16) },
                { title: '保存人', dataIndex: 'createdByName', render: (v: string | null) => v ?? '系统（默认合同）' },
                { title: '售出卡数', dataIndex: 'cards' },
                {
                  title: '',
                  key: 'view',
                  render: (_, r) => <a onClick={() => setViewing(r.version)}>查看</a>,
                },
              ]}
            />
          </Col>
        </Row>
      )}
      {viewing !== null && <VersionModal version={viewing} onClose={() => setViewing(null)} />}
    </Card>
  );
}

/** One saved version's title and text, as it was written. */
function VersionModal({ version, onClose }: { version: number; onClose: () => void }) {
  const q = useQuery({
    queryKey: keys.contractTemplate(version),
    queryFn: () => call(queryContractTemplate, { version }),
  });
  return (
    <Modal open title={`合同模板第 ${version} 版`} onCancel={onClose} footer={null} width={720}>
      {!q.data ? (
        <Skeleton active />
      ) : (
        <div data-testid="contract-version">
          <Typography.Title level={5}>{q.data.template.title}</Typography.Title>
          <div
            tabIndex={0}
            role="region"
            aria-label="合同正文"
            style={{ whiteSpace: 'pre-wrap', lineHeight: 1.8, maxHeight: 520, overflowY: 'auto' }}
          >
            {q.data.template.body}
          </div>
        </div>
      )}
    </Modal>
  );
}
