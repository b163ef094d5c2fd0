import { TreeSelect, type TreeSelectProps } from 'antd';
import { useVenues, venueTreeData } from '../reference.ts';

type VenueProps = Omit<TreeSelectProps, 'value' | 'onChange' | 'treeData'> & {
  value?: number | null;
  onChange?: (v: number | null) => void;
};

/** A venue or one of its rooms; empty means no venue. */
export function VenueSelect({ value, onChange, ...props }: VenueProps) {
  const q = useVenues();
  return (
    <TreeSelect
      // named for screen readers where no form label is linked to it (a Form.Item without a name)
      aria-label={props.id ? undefined : '场地'}
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
