import type { TablePaginationConfig } from 'antd';

/** The drawer tables' paging: a fixed page size, hidden while everything fits on one page. */
export function drawerPaging(
  page: number,
  pageSize: number,
  total: number | undefined,
  onChange: (page: number) => void,
): TablePaginationConfig {
  return { current: page, pageSize, total: total ?? 0, onChange, showSizeChanger: false, hideOnSinglePage: true };
}
