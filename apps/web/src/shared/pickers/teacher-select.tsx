import { Select, type SelectProps } from 'antd';
import { useTeachers } from '../reference.ts';

type P = Omit<SelectProps, 'options'>;

export function TeacherSelect(props: P) {
  const q = useTeachers();
  return (
    <Select
      // named for screen readers where no form label is linked to it (a Form.Item without a name)
      aria-label={props.id ? undefined : '老师'}
      placeholder="选择老师"
      showSearch={{ optionFilterProp: 'label' }}
      loading={q.isPending}
      options={(q.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
      {...props}
    />
  );
}
