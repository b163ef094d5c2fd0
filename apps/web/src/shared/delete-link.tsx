import { Popconfirm } from 'antd';

/** A red 删除 link asking `title` first. */
export function DeleteLink({ title, onConfirm }: { title: string; onConfirm: () => unknown }) {
  return (
    <Popconfirm title={title} onConfirm={onConfirm}>
      <a style={{ color: '#ff4d4f' }}>删除</a>
    </Popconfirm>
  );
}
