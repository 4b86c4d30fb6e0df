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
}

/** One member of the team: the address (copyable), the level below the member, their own team and join date. */
export function TeamMemberRow({ address, levelLabel, isDirect, teamSizeLabel, joinedLabel, copyLabel, onCopy, feedback }: TeamMemberRowProps) {
  return (
    <List.Item
      title={<AddressText address={address} onCopy={onCopy} copyLabel={copyLabel} feedback={feedback} />}
      description={`${teamSizeLabel} · ${joinedLabel}`}
      extra={
        <Tag color={isDirect ? 'primary' : 'default'} fill="outline">
          {levelLabel}
        </Tag>
      }
    />
  );
}
