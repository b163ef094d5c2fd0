import { PlusOutlined } from '@ant-design/icons';
import { LessonMsg, type zEquipment } from '@studio/contract';
import { Button, Form, Input, InputNumber, Space, Table, TreeSelect } from 'antd';
import { useState } from 'react';
import type { z } from 'zod';
import { DeleteLink } from '../../shared/delete-link.tsx';
import { FormModal } from '../../shared/form-modal.tsx';
import { useVenues, venueTreeData } from '../../shared/reference.ts';
import { useDeleteEquipment, useEquipment, useSaveEquipment } from './hooks.ts';

type Equipment = z.infer<typeof zEquipment>;

interface Values {
  name: string;
  count: number;
  areaId?: number | null;
}

/**
 * 私教/小班 → 器械: the store's machines (e.g. 6 台核心床) that lessons need per member; a lesson is
 * offered only while enough of them are free.
 */
export default function EquipmentTab() {
  const q = useEquipment();
  const [editing, setEditing] = useState<Equipment | 'new' | null>(null);
  const del = useDeleteEquipment();
  return (
    <>
      <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'flex-end' }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          添加器械
        </Button>
      </Space>
      <Table<Equipment>
        rowKey="id"
        size="middle"
        loading={q.isFetching}
        dataSource={q.data ?? []}
        pagination={{ pageSize: 10, showTotal: (n) => `共 ${n} 种` }}
        locale={{ emptyText: '还没有器械（如核心床、大器械），需要器械的私教课请先在这里添加' }}
        columns={[
          { title: '器械名称', dataIndex: 'name' },
          { title: '数量', dataIndex: 'count', width: 100, render: (v: number) => `${v} 台` },
          { title: '所在场地', dataIndex: 'areaName', render: (v: string | null) => v ?? '-' },
          {
            title: '操作',
            width: 140,
            render: (_, e) => (
              <Space>
                <a onClick={() => setEditing(e)}>编辑</a>
                <DeleteLink
                  title={`确定删除器械 ${e.name} 吗？用到它的私教课将不再占用它。`}
                  onConfirm={() => del.run(e.id)}
                />
              </Space>
            ),
          },
        ]}
      />
      {editing && <EquipmentModal equipment={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </>
  );
}

function EquipmentModal({ equipment, onClose }: { equipment: Equipment | null; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const save = useSaveEquipment(equipment?.id ?? null);
  const venues = useVenues();
  const initial: Partial<Values> = equipment
    ? { name: equipment.name, count: equipment.count, areaId: equipment.areaId ?? undefined }
    : { count: 1 };
  return (
    <FormModal
      title={equipment ? '编辑器械' : '添加器械'}
      form={form}
      loading={save.loading}
      submit={(v: Values) => save.run({ name: v.name, count: v.count, areaId: v.areaId ?? null })}
      onCancel={onClose}
    >
      <Form<Values> form={form} layout="vertical" initialValues={initial}>
        <Form.Item
          label="器械名称"
          name="name"
          rules={[{ required: true, whitespace: true, message: LessonMsg.equipmentName }]}
        >
          <Input maxLength={50} placeholder="如：核心床" />
        </Form.Item>
        <Form.Item
          label="数量"
          name="count"
          rules={[{ required: true, type: 'number', min: 1, max: 999, message: LessonMsg.equipmentCount }]}
        >
          <InputNumber precision={0} suffix="台" style={{ width: 160 }} />
        </Form.Item>
        <Form.Item label="所在场地" name="areaId">
          <TreeSelect
            allowClear
            treeDefaultExpandAll
            placeholder="不选表示不限场地"
            loading={venues.isPending}
            treeData={venueTreeData(venues.data)}
          />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
