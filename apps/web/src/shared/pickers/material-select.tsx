import { Select, type SelectProps } from 'antd';
import { useMaterials } from '../reference.ts';

type P = Omit<SelectProps, 'options'>;

export function MaterialSelect(props: P) {
  const q = useMaterials();
  return (
    <Select
      // named for screen readers where no form label is linked to it (a Form.Item without a name)
      aria-label={props.id ? undefined : '教材'}
      placeholder="不选表示无教材"
      allowClear
      loading={q.isPending}
      options={(q.data ?? []).map((m) => ({ value: m.id, label: m.name }))}
      {...props}
    />
  );
}
