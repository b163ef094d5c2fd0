import { Select, TreeSelect, type SelectProps, type TreeSelectProps } from 'antd';
import { useCourseOptions, useMaterials, useTeachers, useVenues, venueTreeData } from '../reference.ts';

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

export function CourseSelect(props: P) {
  const q = useCourseOptions();
  return (
    <Select
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

type VenueProps = Omit<TreeSelectProps, 'value' | 'onChange' | 'treeData'> & {
  value?: number | null;
  onChange?: (v: number | null) => void;
};

/** A venue or one of its rooms; empty means no venue. */
export function VenueSelect({ value, onChange, ...props }: VenueProps) {
  const q = useVenues();
  return (
    <TreeSelect
      placeholder="不选表示无场地"
      allowClear
      showSearch
      treeNodeFilterProp="title"
      treeDefaultExpandAll
      loading={q.isPending}
      {...props}
      value={value ?? undefined}
      treeData={venueTreeData(q.data)}
      onChange={(v) => onChange?.(v ?? null)}
    />
  );
}

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
