import { Select, type SelectProps } from 'antd';
import { useMaterials } from '../reference.ts';

type P = Omit<SelectProps, 'options'>;

export function MaterialSelect(props: P) {
  const q = useMaterials();
  return (
    <Select
      placeholder="不选表示无教材"
      allowClear
      loading={q.isPending}
      options={(q.data ?? []).map((m) => ({ value: m.id, label: m.name }))}
      {...props}
    />
  );
}
