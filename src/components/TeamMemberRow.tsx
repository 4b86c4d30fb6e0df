import type { ReactNode } from 'react';
import List from 'antd-mobile/es/components/list';
import Tag from 'antd-mobile/es/components/tag';
import { AddressText } from './AddressText';

export interface TeamMemberRowProps {
  address: string;
  levelLabel: string;
  isDirect: boolean;
  teamSizeLabel: string;
  joinedLabel: string;
  copyLabel: string;
  onCopy: () => void;
  feedback: { kind: 'copied' | 'failed'; text: string } | null;
  /** A link to the member's own team, when it has direct members. */
  open?: ReactNode;
}

/** One member of the team: the address (copyable), the level below the member, their own team and join date, and a way into that team. */
export function TeamMemberRow({ address, levelLabel, isDirect, teamSizeLabel, joinedLabel, copyLabel, onCopy, feedback, open }: TeamMemberRowProps) {
  return (
    <List.Item
      title={<AddressText address={address} onCopy={onCopy} copyLabel={copyLabel} feedback={feedback} />}
      description={
        <>
          <span>{`${teamSizeLabel} · ${joinedLabel}`}</span>
          {open}
        </>
      }
      extra={
        <Tag color={isDirect ? 'primary' : 'default'} fill="outline">
          {levelLabel}
        </Tag>
      }
    />
  );
}
