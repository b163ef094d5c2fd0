import { Modal } from 'antd';
import type { ToolModalProps } from '../schedule-page.tsx';

export default function TodoModal({ onClose }: ToolModalProps) {
  return <Modal open title="..." onCancel={onClose} footer={null} />;
}
