import type { AreaNode } from '@studio/contract';
import type { CSSProperties } from 'react';
import { useTeachers, useVenues } from '../reference.ts';
import './filter-select.css';

interface Option {
  value: number;
  label: string;
  depth: number;
}

/**
 * A list filter as the browser's own select, styled like the form fields: the calendar's venue and
 * teacher filters. The antd Select and TreeSelect these replace were about 45 KB of the calendar's
 * first load on the wire; a filter needs no search box or tree widget (rooms are indented under
 * their venue). The empty choice is "all".
 */
function FilterSelect({
  options,
  value,
  onChange,
  allLabel,
  loading,
  style,
  testId,
}: {
  options: Option[];
  value: number | null;
  onChange: (v: number | null) => void;
  allLabel: string;
  loading: boolean;
  style?: CSSProperties;
  testId: string;
}) {
  return (
    <select
      className={value == null ? 'filter-select filter-select-empty' : 'filter-select'}
      data-testid={testId}
      aria-label={allLabel}
      style={style}
      value={value ?? ''}
      disabled={loading}
      onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))}
    >
      <option value="">{allLabel}</option>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {'\u3000'.repeat(o.depth)}
          {o.label}
        </option>
      ))}
    </select>
  );
}

function flatten(nodes: AreaNode[] | undefined, depth = 0): Option[] {
  return (nodes ?? []).flatMap((n) => [{ value: n.id, label: n.name, depth }, ...flatten(n.children, depth + 1)]);
}

/** Venue filter: a venue includes its rooms (the server widens it). */
export function VenueFilter(props: {
  value: number | null;
  onChange: (v: number | null) => void;
  style?: CSSProperties;
}) {
  const q = useVenues();
  return (
    <FilterSelect {...props} testId="area-filter" allLabel="全部场地" loading={q.isPending} options={flatten(q.data)} />
  );
}

export function TeacherFilter(props: {
  value: number | null;
  onChange: (v: number | null) => void;
  style?: CSSProperties;
}) {
  const q = useTeachers();
  return (
    <FilterSelect
      {...props}
      testId="teacher-filter"
      allLabel="全部老师"
      loading={q.isPending}
      options={(q.data ?? []).map((t) => ({ value: t.id, label: t.name, depth: 0 }))}
    />
  );
}
