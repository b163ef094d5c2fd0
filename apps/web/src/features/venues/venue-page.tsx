import { RefMsg, type AreaNode } from '@studio/contract';
import { Form, Input, Space, Table, TreeSelect } from 'antd';
import { useState } from 'react';
import { DeleteLink } from '../../shared/delete-link.tsx';
import { FormModal } from '../../shared/form-modal.tsx';
import { useVenues, venueTreeData } from '../../shared/reference.ts';
import { ListCard } from '../../shared/list-card.tsx';
import { useDeleteVenue, useSaveVenue, type VenueFields } from './hooks.ts';

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

type Editing = { mode: 'new'; parentId: number | null } | { mode: 'edit'; row: Row };

/** /venue/list: the venue tree (add child, rename, move under another parent, delete when unused). */
export default function VenuePage() {
  const q = useVenues();
  const [editing, setEditing] = useState<Editing | null>(null);
  const del = useDeleteVenue();
  const rows = toRows(q.data ?? [], null);

  return (
    <ListCard title="场地" addLabel="添加场地" onAdd={() => setEditing({ mode: 'new', parentId: null })}>
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
                <DeleteLink title={`确定删除场地 ${r.name} 吗？`} onConfirm={() => del.run(r.id)} />
              </Space>
            ),
          },
        ]}
      />
      {editing && <VenueModal editing={editing} tree={q.data ?? []} onClose={() => setEditing(null)} />}
    </ListCard>
  );
}

function VenueModal({ editing, tree, onClose }: { editing: Editing; tree: AreaNode[]; onClose: () => void }) {
  const [form] = Form.useForm<VenueFields>();
  const save = useSaveVenue(editing.mode === 'edit' ? editing.row.id : null);
  const initial =
    editing.mode === 'edit'
      ? { name: editing.row.name, parentId: editing.row.parentId ?? undefined }
      : { parentId: editing.parentId ?? undefined };
  return (
    <FormModal
      title={editing.mode === 'edit' ? '编辑场地' : '添加场地'}
      form={form}
      loading={save.loading}
      submit={save.run}
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
            treeData={venueTreeData(tree, editing.mode === 'edit' ? editing.row.id : undefined)}
          />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
