import Button from 'antd-mobile/es/components/button';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { addressSchema } from '../../../api-schema/primitives';
import { FormField } from '../../components/FormField';
import { useDraft } from '../useDraft';

const isAddressOrEmpty = (text: string) => text === '' || addressSchema.safeParse(text).success;

/**
 * A list's member filter: the address as typed (a draft of the one the page's address holds), what is wrong with it,
 * and its two ways of applying: as it is typed once it is an address or empty (the table's filters row), or when the
 * phone's form is sent.
 *
 * @example const filter = useMemberFilter(member, (address) => setQuery({ address }), t('orders.memberInvalid'));
 */
export function useMemberFilter(member: string, apply: (address: string) => void, invalidText: string) {
  const [text, setText] = useDraft(member);
  const typed = text.trim();
  return {
    member,
    text,
    error: isAddressOrEmpty(typed) ? null : invalidText,
    setText,
    /** The filters row: applies as it is typed. */
    typeAndApply: (next: string) => {
      setText(next);
      if (isAddressOrEmpty(next.trim())) apply(next.trim());
    },
    submit: (event: FormEvent) => {
      event.preventDefault();
      if (isAddressOrEmpty(typed)) apply(typed);
    },
    clear: () => {
      setText('');
      apply('');
    },
  };
}

export type MemberFilterState = ReturnType<typeof useMemberFilter>;

/** The phone's member filter: the field, the screen's own filters (`children`), Filter, and Clear once one applies. */
export function MemberFilterForm({ id, label, filter, children }: { id: string; label: string; filter: MemberFilterState; children?: ReactNode }) {
  const { t } = useTranslation('ops');
  return (
    <form className="desk-form" onSubmit={filter.submit} role="search">
      <FormField id={id} label={label} error={filter.error} value={filter.text} placeholder="0x…" onChange={(event) => filter.setText(event.target.value)} />
      {children}
      <div className="desk-actions">
        <Button type="submit" color="primary" fill="outline" shape="rounded">
          {t('actions.filter')}
        </Button>
        {filter.member ? (
          <Button shape="rounded" fill="none" onClick={filter.clear}>
            {t('actions.clearFilter')}
          </Button>
        ) : null}
      </div>
    </form>
  );
}
