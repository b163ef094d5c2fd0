import { Popconfirm } from 'antd';

/** A red 删除 link asking `title` first (antd red-7: 5.57:1 on white). */
export function DeleteLink({ title, onConfirm }: { title: string; onConfirm: () => unknown }) {
  return (
    <Popconfirm title={title} onConfirm={onConfirm}>
      <a style={{ color: '#cf1322' }}>删除</a>
    </Popconfirm>
  );
}
