import { PlusOutlined } from '@ant-design/icons';
import { deleteMaterial, insertMaterial, RefMsg, updateMaterial, type MaterialNode } from '@studio/contract';
import { Button, Card, Form, Input, Modal, Popconfirm, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { call } from '../../api/client.ts';
import { useStore } from '../../api/profile.ts';
import { useMaterials } from '../schedule/lib/reference.ts';
import { useWrite } from '../settings/lib/use-write.ts';

const LEVELS = ['教材', '章节', '课时'];

interface Row {
  id: number;
  name: string;
  level: number;
  children?: Row[];
}

function toRows(nodes: MaterialNode[]): Row[] {
  return nodes.map((n) => ({
    id: n.id,
    name: n.name,
    level: n.level,
    children: n.children?.length ? toRows(n.children) : undefined,
  }));
}

type Editing = { mode: 'new'; parent: Row | null } | { mode: 'edit'; row: Row };

/** /material/list: teaching materials, book -> chapter -> lesson. */
export default function MaterialPage() {
  const store = useStore();
  const q = useMaterials();
  const [editing, setEditing] = useState<Editing | null>(null);
  const key = ['materials', store.id];
  const del = useWrite((id: number) => call(deleteMaterial, { id }), { success: '删除成功', invalidate: [key] });
  const rows = toRows(q.data ?? []);

  return (
    <Card
      title="教材"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ mode: 'new', parent: null })}>
          添加教材
        </Button>
      }
    >
      <Table<Row>
        rowKey="id"
        size="middle"
        loading={q.isFetching}
        dataSource={rows}
        pagination={{ pageSize: 10, showTotal: (n) => `共 ${n} 本教材` }}
        expandable={{ defaultExpandAllRows: true }}
        key={rows.length}
        columns={[
          { title: '名称', dataIndex: 'name' },
          { title: '层级', dataIndex: 'level', width: 100, render: (l: number) => <Tag>{LEVELS[l - 1] ?? l}</Tag> },
          {
            title: '操作',
            width: 240,
            render: (_, r) => (
              <Space>
                {r.level < 3 && (
                  <a onClick={() => setEditing({ mode: 'new', parent: r })}>
                    {r.level === 1 ? '添加章节' : '添加课时'}
                  </a>
                )}
                <a onClick={() => setEditing({ mode: 'edit', row: r })}>重命名</a>
                <Popconfirm title={`确定删除 ${r.name} 吗？`} onConfirm={() => del.run(r.id)}>
                  <a style={{ color: '#ff4d4f' }}>删除</a>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {editing && <MaterialModal editing={editing} invalidate={key} onClose={() => setEditing(null)} />}
    </Card>
  );
}

function MaterialModal({
  editing,
  invalidate,
  onClose,
}: {
  editing: Editing;
  invalidate: unknown[];
  onClose: () => void;
}) {
  const [form] = Form.useForm<{ name: string }>();
  const save = useWrite(
    (name: string) =>
      editing.mode === 'edit'
        ? call(updateMaterial, { id: editing.row.id, name })
        : call(insertMaterial, { name, parentId: editing.parent?.id ?? null }),
    { success: '操作成功', invalidate: [invalidate] },
  );
  const onOk = async () => {
    const v = await form.validateFields().catch(() => null);
    if (v && (await save.run(v.name))) onClose();
  };
  const what = editing.mode === 'edit' ? LEVELS[editing.row.level - 1] : LEVELS[editing.parent?.level ?? 0];
  return (
    <Modal
      open
      title={`${editing.mode === 'edit' ? '重命名' : '添加'}${what}`}
      okText="保存"
      confirmLoading={save.loading}
      onOk={onOk}
      onCancel={onClose}
    >
      {editing.mode === 'new' && editing.parent && <p>上级：{editing.parent.name}</p>}
      <Form form={form} layout="vertical" initialValues={editing.mode === 'edit' ? { name: editing.row.name } : {}}>
        <Form.Item
          label="名称"
          name="name"
          rules={[{ required: true, whitespace: true, message: RefMsg.materialName }]}
        >
          <Input maxLength={50} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
