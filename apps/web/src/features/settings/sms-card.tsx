import { LOGIN_CODE, SMS_DAILY_CAP_MAX, SmsMsg } from '@studio/contract';
import { Alert, Button, Card, Form, Input, InputNumber, Select, Skeleton, Typography } from 'antd';
import { useEffect } from 'react';
import { useSaveSmsSetting, useSmsSetting, type SmsSettingFields } from './hooks.ts';

const PROVIDERS = [
  { value: 'none', label: '不使用短信（由前台给会员登录验证码）' },
  { value: 'tencent', label: '腾讯云短信' },
  { value: 'aliyun', label: '阿里云短信' },
];

/**
 * 短信验证码: the store's SMS provider for members' login codes. The secret is kept on the server
 * and never shown again: left empty, the stored one stays. 每天最多发送 caps the store's texts of a
 * day (a flood of code requests cannot run up the bill); today's count shows beside it.
 */
export function SmsCard() {
  const q = useSmsSetting();
  const save = useSaveSmsSetting();
  const [form] = Form.useForm<SmsSettingFields>();
  const provider = Form.useWatch('provider', form) ?? 'none';
  useEffect(() => {
    if (q.data) form.setFieldsValue({ ...q.data, secret: '' });
  }, [q.data, form]);
  const needed = (msg: string) => ({ required: provider !== 'none', message: msg, whitespace: true });
  return (
    <Card title="短信服务" size="small">
      {!q.data ? (
        <Skeleton active />
      ) : (
        <Form
          form={form}
          layout="vertical"
          onFinish={(v) => void save.run({ ...v, secret: v.secret || undefined })}
          data-testid="sms-form"
        >
          {q.data.capReached && (
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 12 }}
              data-testid="sms-cap-reached"
              message={`今天的短信已达到每天最多发送条数（${q.data.dailyCap} 条）`}
              description="会员今天收不到短信验证码，请在会员详情中点“给登录验证码”；如属正常需要，可调高上限。"
            />
          )}
          <Form.Item name="provider" label="短信服务商">
            <Select options={PROVIDERS} />
          </Form.Item>
          {provider !== 'none' && (
            <>
              <Form.Item
                name="keyId"
                label={provider === 'tencent' ? 'SecretId' : 'AccessKey ID'}
                rules={[needed(SmsMsg.keyId)]}
              >
                <Input autoComplete="off" />
              </Form.Item>
              <Form.Item
                name="secret"
                label={provider === 'tencent' ? 'SecretKey' : 'AccessKey Secret'}
                rules={[{ required: !q.data.secretSet, message: SmsMsg.secretRequired }]}
                extra={q.data.secretSet ? '已保存，留空则不修改' : undefined}
              >
                <Input.Password autoComplete="new-password" />
              </Form.Item>
              {provider === 'tencent' && (
                <Form.Item name="appId" label="短信应用 ID（SdkAppId）" rules={[needed(SmsMsg.appId)]}>
                  <Input />
                </Form.Item>
              )}
              <Form.Item name="signName" label="短信签名" rules={[needed(SmsMsg.signName)]}>
                <Input />
              </Form.Item>
              <Form.Item
                name="templateId"
                label="验证码模板 ID"
                rules={[needed(SmsMsg.templateId)]}
                extra={provider === 'tencent' ? '模板参数：{1} 验证码，{2} 有效分钟数' : '模板变量：${code}'}
              >
                <Input />
              </Form.Item>
              <Form.Item
                name="promotionTemplateId"
                label="候补递补通知模板 ID（可不填）"
                extra={
                  provider === 'tencent'
                    ? '填写后，候补的会员递补成功时收到短信。模板参数：{1} 课程名称，{2} 上课时间（如 12-01 09:30）'
                    : '填写后，候补的会员递补成功时收到短信。模板变量：${course} 课程名称，${time} 上课时间'
                }
              >
                <Input />
              </Form.Item>
              <Form.Item
                name="dailyCap"
                label="每天最多发送（条）"
                rules={[
                  {
                    required: true,
                    type: 'integer',
                    min: 1,
                    max: SMS_DAILY_CAP_MAX,
                    message: SmsMsg.dailyCap,
                  },
                ]}
                extra={`今天已发送 ${q.data.sentToday} 条。达到上限后，会员当天不能再收到短信验证码，可到前台领取。`}
              >
                <InputNumber min={1} max={SMS_DAILY_CAP_MAX} precision={0} style={{ width: 160 }} />
              </Form.Item>
              <Form.Item name="region" label="地域（可不填）">
                <Input placeholder={provider === 'tencent' ? 'ap-guangzhou' : 'cn-hangzhou'} />
              </Form.Item>
              <Form.Item
                name="endpoint"
                label="服务地址（一般不填）"
                rules={[{ pattern: /^(https?:\/\/\S+)?$/, message: SmsMsg.endpoint }]}
              >
                <Input placeholder="默认使用服务商的地址" />
              </Form.Item>
            </>
          )}
          <Typography.Paragraph type="secondary">
            会员在手机上用手机号和短信验证码登录；每个手机号每分钟 1 条、每天最多 {LOGIN_CODE.perDay} 条；同一网络每小时{' '}
            {LOGIN_CODE.freePerHour} 条、每天 {LOGIN_CODE.freePerDay}{' '}
            条以内直接发送，超过后会员须先在手机上完成安全验证（自动计算，约1秒）。设置了候补递补通知模板时，候补成功的会员也会收到短信。
          </Typography.Paragraph>
          <Button type="primary" htmlType="submit" loading={save.loading}>
            保存
          </Button>
        </Form>
      )}
    </Card>
  );
}
