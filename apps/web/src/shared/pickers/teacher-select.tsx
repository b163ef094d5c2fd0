import { Select, type SelectProps } from 'antd';
import { useTeachers } from '../reference.ts';

type P = Omit<SelectProps, 'options'>;

export function TeacherSelect(props: P) {
  const q = useTeachers();
  return (
    <Select
      placeholder="选择老师"
      showSearch={{ optionFilterProp: 'label' }}
      loading={q.isPending}
      options={(q.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
      {...props}
    />
  );
}
