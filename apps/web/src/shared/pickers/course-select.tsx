import { Select, type SelectProps } from 'antd';
import { useCourseOptions } from '../reference.ts';

type P = Omit<SelectProps, 'options'>;

export function CourseSelect(props: P) {
  const q = useCourseOptions();
  return (
    <Select
      // named for screen readers where no form label is linked to it (a Form.Item without a name)
      aria-label={props.id ? undefined : '课程'}
      placeholder="选择课程"
      showSearch={{ optionFilterProp: 'label' }}
      loading={q.isPending}
      options={(q.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
      {...props}
    />
  );
}

/** Default capacity of a course (spec section 9). */
export function useCourseCapacity(): (courseId: number | undefined) => number | undefined {
  const q = useCourseOptions();
  return (id) => q.data?.find((c) => c.id === id)?.count;
}
