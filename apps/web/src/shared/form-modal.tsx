import { Modal, type FormInstance, type ModalProps } from 'antd';

type Props<V, R> = Omit<ModalProps, 'open' | 'onOk' | 'confirmLoading' | 'onCancel'> & {
  form: FormInstance<V>;
  /** Runs the write with the validated values (a `useWrite` run): undefined keeps the modal open. */
  submit: (values: V) => Promise<{ data: R } | undefined>;
  loading: boolean;
  onCancel: () => void;
  /** After a successful write; closes by default. */
  onDone?: (data: R, values: V) => void;
  /** When a field is not valid (the form shows why beside it). */
  onInvalid?: () => void;
};

/** A modal around a form: OK validates the form, runs the write and, when it succeeds, closes. */
export function FormModal<V, R>({
  form,
  submit,
  loading,
  onCancel,
  onDone,
  onInvalid,
  okText = '保存',
  ...modal
}: Props<V, R>) {
  const onOk = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) onInvalid?.();
    const r = v && (await submit(v));
    if (r) (onDone ?? onCancel)(r.data, v);
  };
  return <Modal open okText={okText} confirmLoading={loading} onOk={onOk} onCancel={onCancel} {...modal} />;
}
