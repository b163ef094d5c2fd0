import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Input, Space, type TablePaginationConfig } from 'antd';
import { useState, type ReactNode } from 'react';

interface Props {
  title: ReactNode;
  addLabel: string;
  onAdd: () => void;
  /** A search box left of the add button. */
  search?: { placeholder: string; onSearch: (text: string) => void };
  children: ReactNode;
}

/** A management screen's list: title, optional search, the add button, then the table. */
export function ListCard({ title, addLabel, onAdd, search, children }: Props) {
  return (
    <Card
      title={title}
      extra={
        <Space>
          {search && (
            <Input.Search
              allowClear
              placeholder={search.placeholder}
              style={{ width: 220 }}
              onSearch={(v) => search.onSearch(v)}
            />
          )}
          <Button type="primary" icon={<PlusOutlined />} onClick={onAdd}>
            {addLabel}
          </Button>
        </Space>
      }
    >
      {children}
    </Card>
  );
}

/** Server-side paging with a search text: a new search starts again at page 1. */
export function usePagedSearch() {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const [search, setSearchText] = useState('');
  const setSearch = (text: string) => {
    setSearchText(text.trim());
    setPage(1);
  };
  /** The table's pagination for `total` rows, counted as `共 N <unit>`. */
  const pagination = (total: number, unit: string): TablePaginationConfig => ({
    current: page,
    pageSize,
    total,
    showSizeChanger: true,
    showTotal: (n) => `共 ${n} ${unit}`,
    onChange: (p, s) => {
      setPage(p);
      setPageSize(s);
    },
  });
  return { page, pageSize, search, setSearch, pagination };
}
