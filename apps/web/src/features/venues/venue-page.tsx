import { PlusOutlined } from '@ant-design/icons';
import { deleteArea, insertArea, RefMsg, updateArea, type AreaNode } from '@studio/contract';
import { Button, Card, Form, Input, Modal, Popconfirm, Space, Table, TreeSelect } from 'antd';
import { useState } from 'react';
import { call } from '../../api/client.ts';
import { useAreas } from '../schedule/lib/reference.ts';
import { useWrite } from '../settings/lib/use-write.ts';

interface Row {
  id: number;
  name: string;
  parentId: number | null;
  children?: Row[];
}

function toRows(nodes: AreaNode[], parentId: number | null): Row[] {
  return nodes.map((n) => ({
    id: n.id,
    name: n.name,
    parentId,
    children: n.children.length ? toRows(n.children, n.id) : undefined,
  }));
}

/** Parent choices: every area except `exclude` and its subtree (no cycles). */
function parentTree(nodes: AreaNode[], exclude?: number): { title: string; value: number; children: any[] }[] {
  return nodes
    .filter((n) => n.id !== exclude)
    .map((n) => ({ title: n.name, value: n.id, children: parentTree(n.children, exclude) }));
}

type Editing = { mode: 'new'; parentId: number | null } | { mode: 'edit'; row: Row };

/** /venue/list: the area tree (add child, rename, move under another parent, delete when unused). */
export default function VenuePage() {
  const q = useAreas();
  const [editing, setEditing] = useState<Editing | null>(null);
  const del = useWrite((id: number) => call(deleteArea, { id }), { success: '删除成功', invalidate: [['areas']] });
  const rows = toRows(q.data ?? [], null);

  return (
    <Card
      title="场地"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ mode: 'new', parentId: null })}>
          添加场地
        </Button>
      }
    >
      <Table<Row>
        rowKey="id"
        size="middle"
        loading={q.isFetching}
        dataSource={rows}
        pagination={false}
        expandable={{ defaultExpandAllRows: true }}
        key={rows.length}
        columns={[
          { title: '场地名称', dataIndex: 'name' },
          {
            title: '操作',
            width: 240,
            render: (_, r) => (
              <Space>
                <a onClick={() => setEditing({ mode: 'new', parentId: r.id })}>添加下级</a>
                <a onClick={() => setEditing({ mode: 'edit', row: r })}>编辑</a>
                <Popconfirm title={`确定删除场地 ${r.name} 吗？`} onConfirm={() => del.run(r.id)}>
                  <a style={{ color: '#ff4d4f' }}>删除</a>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {editing && <AreaModal editing={editing} tree={q.data ?? []} onClose={() => setEditing(null)} />}
    </Card>
  );
}

function AreaModal({ editing, tree, onClose }: { editing: Editing; tree: AreaNode[]; onClose: () => void }) {
  const [form] = Form.useForm<{ name: string; parentId?: number | null }>();
  const save = useWrite(
    (v: { name: string; parentId?: number | null }) =>
      editing.mode === 'edit'
        ? call(updateArea, { id: editing.row.id, name: v.name, parentId: v.parentId ?? null })
        : call(insertArea, { name: v.name, parentId: v.parentId ?? null }),
    { success: '操作成功', invalidate: [['areas']] },
  );
  const onOk = async () => {
    const v = await form.validateFields().catch(() => null);
    if (v && (await save.run(v))) onClose();
  };
  const initial =
    editing.mode === 'edit'
      ? { name: editing.row.name, parentId: editing.row.parentId ?? undefined }
      : { parentId: editing.parentId ?? undefined };
  return (
    <Modal
      open
      title={editing.mode === 'edit' ? '编辑场地' : '添加场地'}
      okText="保存"
      confirmLoading={save.loading}
      onOk={onOk}
      onCancel={onClose}
    >
      <Form form={form} layout="vertical" initialValues={initial}>
        <Form.Item
          label="场地名称"
          name="name"
          rules={[{ required: true, whitespace: true, message: RefMsg.areaName }]}
        >
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item label="上级场地" name="parentId">
          <TreeSelect
            allowClear
            treeDefaultExpandAll
            placeholder="不选表示顶级场地"
            treeData={parentTree(tree, editing.mode === 'edit' ? editing.row.id : undefined)}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
