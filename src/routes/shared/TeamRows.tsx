import List from 'antd-mobile/es/components/list';
import { useTranslation } from 'react-i18next';
import type { TeamMember } from '../../../api-schema/member';
import { TeamMemberRow } from '../../components/TeamMemberRow';
import { formatDate } from '../../components/dateFormat';
import { AppLink } from '../../components/AppLink';
import { paths } from '../../app/paths';
import { useAppNavigate } from './useAppNavigate';
import { useCopy } from './useCopy';

/**
 * Team members as rows, each address copyable (one copy machine for the list), each with direct members linking to
 * its own team (/team?of=address). Used by /team and its search.
 */
export function TeamRows({ members }: { members: readonly TeamMember[] }) {
  const { t, i18n } = useTranslation('team');
  const onNavigate = useAppNavigate();
  const { copy, feedback } = useCopy();
  const locale = i18n.resolvedLanguage ?? 'zh';
  return (
    <List mode="card" className="rows">
      {members.map((member) => (
        <TeamMemberRow
          key={member.address}
          address={member.address}
          isDirect={member.level === 1}
          levelLabel={member.level === 1 ? t('direct') : t('level', { level: member.level })}
          teamSizeLabel={t('teamSize', { count: member.teamSize })}
          joinedLabel={t('joinedAt', { date: formatDate(member.joinedAt, locale) })}
          copyLabel={t('copy')}
          onCopy={() => copy(member.address, member.address)}
          feedback={feedback(member.address, t('copied'))}
          open={
            member.directCount > 0 ? (
              <AppLink href={paths.team.href(member.address)} onNavigate={onNavigate} className="team-open-link">
                {t('open', { count: member.directCount })}
              </AppLink>
            ) : undefined
          }
        />
      ))}
    </List>
  );
}
