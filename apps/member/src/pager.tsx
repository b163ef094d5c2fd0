import { Button } from 'antd-mobile';

/** 下一页 / 上一页 under a list the server pages (`pageSize` a page, `total` in all). */
export function Pager({
  page,
  total,
  pageSize = 10,
  onPage,
}: {
  page: number;
  total: number | undefined;
  pageSize?: number;
  onPage: (page: number) => void;
}) {
  return (
    <>
      {total !== undefined && total > page * pageSize && (
        <Button block onClick={() => onPage(page + 1)}>
          下一页
        </Button>
      )}
      {page > 1 && (
        <Button block fill="none" onClick={() => onPage(page - 1)}>
          上一页
        </Button>
      )}
    </>
  );
}
