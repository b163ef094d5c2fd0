import { memberSearch } from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useEffect, useState } from 'react';
import { call } from '../../api/client.ts';
import { keys } from '../query-keys.ts';

interface Props {
  value?: number;
  onChange?: (id: number | undefined, name?: string) => void;
  disabled?: boolean;
  /** Shown for a preselected member before any search. */
  initial?: { id: number; name: string; mobile: string };
  id?: string;
}

/** Member search by name or mobile fragment. */
export function MemberPicker({ value, onChange, disabled, initial, id }: Props) {
  const [text, setText] = useState('');
  const [param, setParam] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setParam(text.trim()), 250);
    return () => clearTimeout(t);
  }, [text]);
  const q = useQuery({
    queryKey: keys.memberSearch.text(param),
    queryFn: () => call(memberSearch, { param }),
    staleTime: 10_000,
    placeholderData: (p) => p,
  });
  const list = q.data ?? [];
  const options = list.map((m) => ({ value: m.id, label: `${m.name} ${m.mobile}` }));
  if (initial && !options.some((o) => o.value === initial.id)) {
    options.unshift({ value: initial.id, label: `${initial.name} ${initial.mobile}` });
  }
  return (
    <Select
      id={id}
      // named for screen readers also where no form label is linked to it (a list's rows, a search)
      aria-label="会员"
      data-testid="member-picker"
      showSearch={{ filterOption: false, onSearch: setText }}
      placeholder="输入姓名或手机号搜索会员"
      loading={q.isFetching}
      disabled={disabled}
      value={value}
      options={options}
      notFoundContent={q.isFetching ? '搜索中…' : '没有找到会员'}
      onChange={(v: number | undefined) => onChange?.(v, list.find((m) => m.id === v)?.name)}
      allowClear
    />
  );
}
