import { queryCardContract, type MemberCardRow } from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { Modal, Skeleton, Typography } from 'antd';
import { call } from '../../api/client.ts';
import { keys } from '../../shared/query-keys.ts';

/** 合同: the card's contract as its sale filled it (the version in force then), or why there is none. */
export default function ContractModal({ card, onClose }: { card: MemberCardRow; onClose: () => void }) {
  const q = useQuery({
    queryKey: keys.member.contract(card.id),
    queryFn: () => call(queryCardContract, { mcId: card.id }),
  });
  const c = q.data;
  return (
    <Modal open title={`合同：${card.cardName}`} onCancel={onClose} footer={null} width={720}>
      {q.error ? (
        <Typography.Text type="danger">{q.error.message}</Typography.Text>
      ) : q.isPending ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : !c ? (
        <Typography.Text type="secondary" data-testid="card-contract-none">
          这张卡没有合同（导入的卡，或启用电子合同之前售出的卡）。
        </Typography.Text>
      ) : (
        <div data-testid="card-contract">
          <Typography.Title level={4} style={{ textAlign: 'center' }}>
            {c.title}
          </Typography.Title>
          <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
            合同模板第 {c.version} 版 · 售卡时间 {c.createdAt.slice(0, 16)}
          </Typography.Paragraph>
          <div
            tabIndex={0}
            role="region"
            aria-label="合同正文"
            style={{ whiteSpace: 'pre-wrap', lineHeight: 1.8, maxHeight: 520, overflowY: 'auto' }}
          >
            {c.text}
          </div>
        </div>
      )}
    </Modal>
  );
}
