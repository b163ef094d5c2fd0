import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import {
  HEALTH_DEFAULT_QUESTIONS,
  HEALTH_MAX_QUESTIONS,
  HEALTH_QUESTION_MAX,
  HealthMsg,
  queryHealthSetting,
  updateHealthSetting,
} from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Form, Input, Skeleton, Space, Switch, Typography } from 'antd';
import { useEffect } from 'react';
import { call } from '../../api/client.ts';
import { keys } from '../../shared/query-keys.ts';
import { useWrite } from '../../shared/use-write.ts';

interface Values {
  questions: string[];
  required: boolean;
  reanswer: boolean;
}

/**
 * 健康声明 (店长): the questions members answer on their phone (a yes marks them 健康提示 for their
 * teachers), whether it is asked before booking, and whether changed questions ask everyone again.
 */
export function HealthCard() {
  const q = useQuery({ queryKey: keys.healthSetting, queryFn: () => call(queryHealthSetting, {}) });
  const save = useWrite((v: Values) => call(updateHealthSetting, v), { success: '保存成功', changes: 'storeSetting' });
  const [form] = Form.useForm<Values>();
  useEffect(() => {
    if (q.data) form.setFieldsValue(q.data);
  }, [q.data, form]);
  return (
    <Card title="健康声明" size="small" data-testid="health-setting">
      {!q.data ? (
        <Skeleton active />
      ) : (
        <Form<Values> form={form} layout="vertical" onFinish={(v) => void save.run(v)}>
          <Typography.Paragraph type="secondary">
            会员在手机「我的 →
            健康声明」填写（须先单独同意），一年后再填一次。回答「是」的会员在课程详情里显示「健康提示」；具体回答只有会员允许时店长和上课老师才能看到，前台只看到提示。当前为第{' '}
            {q.data.version} 版问题。
          </Typography.Paragraph>
          <Form.List
            name="questions"
            rules={[
              {
                validator: async (_, v: string[] | undefined) => {
                  if (!v?.length) throw new Error(HealthMsg.questions);
                },
              },
            ]}
          >
            {(fields, { add, remove }, { errors }) => (
              <>
                {fields.map((f, i) => (
                  <Space key={f.key} align="baseline" style={{ display: 'flex' }}>
                    <Form.Item
                      name={f.name}
                      rules={[{ required: true, whitespace: true, message: HealthMsg.questionEmpty }]}
                      style={{ width: 420, marginBottom: 8 }}
                    >
                      <Input maxLength={HEALTH_QUESTION_MAX} aria-label={`问题${i + 1}`} />
                    </Form.Item>
                    <MinusCircleOutlined aria-label={`删除问题${i + 1}`} onClick={() => remove(f.name)} />
                  </Space>
                ))}
                <Space>
                  <Button
                    icon={<PlusOutlined />}
                    disabled={fields.length >= HEALTH_MAX_QUESTIONS}
                    onClick={() => add('')}
                  >
                    添加问题
                  </Button>
                  <Button onClick={() => form.setFieldValue('questions', [...HEALTH_DEFAULT_QUESTIONS])}>
                    恢复默认问题
                  </Button>
                </Space>
                <Form.ErrorList errors={errors} />
              </>
            )}
          </Form.List>
          <Form.Item name="required" label="上课前须填写健康声明" valuePropName="checked" style={{ marginTop: 16 }}>
            <Switch />
          </Form.Item>
          <Form.Item name="reanswer" label="修改问题后，会员须重新填写" valuePropName="checked">
            <Switch />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={save.loading}>
            保存
          </Button>
        </Form>
      )}
    </Card>
  );
}
