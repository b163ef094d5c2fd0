import { RefMsg, type MaterialNode } from '@studio/contract';
import { Form, Input, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { DeleteLink } from '../../shared/delete-link.tsx';
import { FormModal } from '../../shared/form-modal.tsx';
import { useMaterials } from '../../shared/reference.ts';
import { ListCard } from '../../shared/list-card.tsx';
import { useDeleteMaterial, useSaveMaterial } from './hooks.ts';

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
  const q = useMaterials();
  const [editing, setEditing] = useState<Editing | null>(null);
  const del = useDeleteMaterial();
  const rows = toRows(q.data ?? []);

  return (
    <ListCard title="教材" addLabel="添加教材" onAdd={() => setEditing({ mode: 'new', parent: null })}>
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
                <DeleteLink title={`确定删除 ${r.name} 吗？`} onConfirm={() => del.run(r.id)} />
              </Space>
            ),
          },
        ]}
      />
      {editing && <MaterialModal editing={editing} onClose={() => setEditing(null)} />}
    </ListCard>
  );
}

function MaterialModal({ editing, onClose }: { editing: Editing; onClose: () => void }) {
  const [form] = Form.useForm<{ name: string }>();
  const save = useSaveMaterial(
    editing.mode === 'edit' ? { id: editing.row.id } : { parentId: editing.parent?.id ?? null },
  );
  const what = editing.mode === 'edit' ? LEVELS[editing.row.level - 1] : LEVELS[editing.parent?.level ?? 0];
  return (
    <FormModal
      title={`${editing.mode === 'edit' ? '重命名' : '添加'}${what}`}
      form={form}
      loading={save.loading}
      submit={(v) => save.run(v.name)}
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
    </FormModal>
  );
}
