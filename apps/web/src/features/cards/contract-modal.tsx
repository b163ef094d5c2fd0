import {
  CONTRACT_SIGN_METHODS,
  CONTRACT_SIGNATURE_MAX,
  ContractMsg,
  createCardContractLink,
  downloadCardContract,
  queryCardContract,
  signCardContract,
  type MemberCardRow,
} from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Modal, Skeleton, Space, Tag, Typography } from 'antd';
import { useRef, useState } from 'react';
import { call } from '../../api/client.ts';
import { DownloadableQr } from '../../shared/qr-image.tsx';
import { keys } from '../../shared/query-keys.ts';
import { useWrite } from '../../shared/use-write.ts';

/** Saves a signed contract's PDF (the call answers its bytes in base64). */
function savePdf(f: { fileName: string; pdf: string }) {
  const bytes = Uint8Array.from(atob(f.pdf), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: 'application/pdf' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = f.fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * 合同: the card's contract as its sale filled it, and its state. 待签约: the QR the member scans to
 * sign on their phone, or 平板手写 here; 已签约: who signed, how, when, from where, the PDF's SHA-256
 * and 下载合同 PDF.
 */
export default function ContractModal({ card, onClose }: { card: MemberCardRow; onClose: () => void }) {
  const [link, setLink] = useState<{ url: string; expireTime: string } | null>(null);
  // While the QR is shown, the contract is asked for every few seconds: the member's signature shows.
  const q = useQuery({
    queryKey: keys.member.contract(card.id),
    queryFn: () => call(queryCardContract, { mcId: card.id }),
    refetchOnMount: 'always',
    refetchInterval: (query) => (link && query.state.data?.status === 'pending' ? 3000 : false),
  });
  const [drawing, setDrawing] = useState(false);
  const makeLink = useWrite(() => call(createCardContractLink, { mcId: card.id }));
  const download = useWrite(() => call(downloadCardContract, { mcId: card.id }));
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
          <Space style={{ marginBottom: 8 }}>
            {c.status === 'signed' ? (
              <Tag color="success" data-testid="card-contract-status">
                已签约
              </Tag>
            ) : (
              <Tag color="warning" data-testid="card-contract-status">
                待签约
              </Tag>
            )}
            {c.status === 'pending' && (
              <>
                <Button
                  type="primary"
                  loading={makeLink.loading}
                  onClick={async () => {
                    const r = await makeLink.run();
                    if (r) setLink(r.data);
                  }}
                  data-testid="contract-qr-button"
                >
                  会员扫码签署
                </Button>
                <Button onClick={() => setDrawing(true)} data-testid="contract-tablet-button">
                  平板手写签名
                </Button>
              </>
            )}
            {c.status === 'signed' && (
              <Button
                type="primary"
                loading={download.loading}
                onClick={async () => {
                  const r = await download.run();
                  if (r) savePdf(r.data);
                }}
                data-testid="contract-download"
              >
                下载合同 PDF
              </Button>
            )}
          </Space>
          {c.status === 'pending' && link && (
            <Alert
              type="info"
              style={{ marginBottom: 8 }}
              message={`请会员用手机扫码，登录后阅读并签署（${link.expireTime.slice(11, 16)} 前有效）`}
              description={
                <div data-testid="contract-link" data-url={link.url}>
                  <DownloadableQr text={link.url} testId="contract-qr" fileName={`合同签署-${card.cardName}.png`} />
                </div>
              }
            />
          )}
          {c.status === 'pending' && drawing && (
            <SignaturePad mcId={card.id} onDone={() => setDrawing(false)} onCancel={() => setDrawing(false)} />
          )}
          {c.status === 'signed' && (
            <Descriptions size="small" column={2} bordered style={{ marginBottom: 8 }} data-testid="contract-signature">
              <Descriptions.Item label="签署人">{c.signerName}</Descriptions.Item>
              <Descriptions.Item label="签署方式">
                {c.signMethod ? CONTRACT_SIGN_METHODS[c.signMethod] : ''}
              </Descriptions.Item>
              <Descriptions.Item label="签署时间">{c.signedAt}</Descriptions.Item>
              <Descriptions.Item label="签署地址">{c.signIp}</Descriptions.Item>
              <Descriptions.Item label="PDF SHA-256" span={2}>
                <Typography.Text code style={{ fontSize: 12 }}>
                  {c.pdfSha256}
                </Typography.Text>
              </Descriptions.Item>
            </Descriptions>
          )}
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

/** 平板手写: the member draws their signature (finger or pen); 确认签署 sends it as a PNG. */
function SignaturePad({ mcId, onDone, onCancel }: { mcId: number; onDone: () => void; onCancel: () => void }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [drawn, setDrawn] = useState(false);
  const [problem, setProblem] = useState('');
  const last = useRef<{ x: number; y: number } | null>(null);
  const sign = useWrite((image: string) => call(signCardContract, { mcId, image }), {
    success: '合同已签署',
    changes: 'memberCard',
  });
  const at = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return {
      x: ((e.clientX - r.left) * e.currentTarget.width) / r.width,
      y: ((e.clientY - r.top) * e.currentTarget.height) / r.height,
    };
  };
  const line = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const ctx = canvas.current?.getContext('2d');
    const p = at(e);
    if (!ctx || !last.current) return;
    ctx.lineWidth = 3;
    ctx.lineCap = 'round';
    ctx.strokeStyle = '#000';
    ctx.beginPath();
    ctx.moveTo(last.current.x, last.current.y);
    ctx.lineTo(p.x, p.y);
    ctx.stroke();
    last.current = p;
    setDrawn(true);
    setProblem('');
  };
  const clear = () => {
    const el = canvas.current;
    el?.getContext('2d')?.clearRect(0, 0, el.width, el.height);
    setDrawn(false);
  };
  const submit = async () => {
    const image = canvas.current?.toDataURL('image/png') ?? '';
    if (!drawn) return setProblem(ContractMsg.image);
    if (image.length > CONTRACT_SIGNATURE_MAX) return setProblem(ContractMsg.imageSize);
    setProblem('');
    if (await sign.run(image)) onDone();
  };
  return (
    <div style={{ marginBottom: 12 }} data-testid="signature-pad">
      <Typography.Paragraph>请会员在下方框内手写签名：</Typography.Paragraph>
      <canvas
        ref={canvas}
        width={600}
        height={200}
        aria-label="签名板"
        style={{
          width: '100%',
          height: 200,
          border: '1px dashed #999',
          borderRadius: 8,
          touchAction: 'none',
          background: '#fff',
        }}
        onPointerDown={(e) => {
          e.currentTarget.setPointerCapture(e.pointerId);
          last.current = at(e);
        }}
        onPointerMove={(e) => {
          if (last.current) line(e);
        }}
        onPointerUp={() => (last.current = null)}
        onPointerCancel={() => (last.current = null)}
      />
      {problem && <Typography.Text type="danger">{problem}</Typography.Text>}
      <Space style={{ marginTop: 8 }}>
        <Button type="primary" loading={sign.loading} onClick={() => void submit()} data-testid="signature-submit">
          确认签署
        </Button>
        <Button onClick={clear}>重写</Button>
        <Button onClick={onCancel}>取消</Button>
      </Space>
    </div>
  );
}
