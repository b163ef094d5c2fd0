import type { MaterialNode } from '@studio/contract';
import { Select, TreeSelect, type SelectProps } from 'antd';
import { areaTreeData, useAreas, useCourses, useMaterials, useTeachers } from '../lib/reference.ts';

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
  const q = useCourses();
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
export function useCourseCount(): (courseId: number | undefined) => number | undefined {
  const q = useCourses();
  return (id) => q.data?.find((c) => c.id === id)?.count;
}

export function AreaSelect({
  value,
  onChange,
  id,
}: {
  value?: number | null;
  onChange?: (v: number | null) => void;
  id?: string;
}) {
  const q = useAreas();
  return (
    <TreeSelect
      id={id}
      placeholder="不选表示无场地"
      allowClear
      showSearch
      treeNodeFilterProp="title"
      treeDefaultExpandAll
      loading={q.isPending}
      value={value ?? undefined}
      treeData={areaTreeData(q.data)}
      onChange={(v) => onChange?.(v ?? null)}
    />
  );
}

const bookOptions = (nodes: MaterialNode[]) => nodes.map((b) => ({ value: b.id, label: b.name }));

export function MaterialSelect(props: P) {
  const q = useMaterials();
  return (
    <Select
      placeholder="不选表示无教材"
      allowClear
      loading={q.isPending}
      options={bookOptions(q.data ?? [])}
      {...props}
    />
  );
}
