import { useTranslation } from 'react-i18next';
import { AmountText } from '../../components/AmountText';
import { SummaryList } from '../../components/SummaryList';
import { useDeskRead } from '../deskHooks';
import { ReadState } from './ReadState';

/**
 * The operators' policy as the server runs it (opsPolicy), read-only: per act, who may, what one operator does alone
 * (per act, per operator and per member in 24 hours), and what happens above it. Finance and support see it beside
 * the acts it bounds.
 */
export function PolicyCard() {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  const policy = useDeskRead('opsPolicy', undefined);
  const amount = (value: string | null) => (value === null ? t('policy.none') : <AmountText amount={value} locale={locale} />);
  return (
    <section className="card desk-form" aria-labelledby="policy-title">
      <h3 id="policy-title" className="card-title">
        {t('policy.title')}
      </h3>
      <p className="desk-muted">{t('policy.lead')}</p>
      <ReadState actor={policy} isEmpty={(value) => value.rules.length === 0} emptyTitle={t('policy.empty')}>
        {(value) => (
          <ul className="desk-list" aria-label={t('policy.title')}>
            {value.rules.map((rule) => (
              <li key={rule.act} className="desk-item">
                <SummaryList
                  label={t(`policy.acts.${rule.act}`)}
                  rows={[
                    { label: t('policy.act'), value: t(`policy.acts.${rule.act}`), strong: true },
                    { label: t('policy.roles'), value: rule.roles.map((role) => t(`roles.${role}`)).join(', ') },
                    { label: t('policy.alonePerAct'), value: amount(rule.alonePerAct) },
                    { label: t('policy.aloneOperatorDay'), value: amount(rule.aloneOperatorDay) },
                    { label: t('policy.aloneMemberDay'), value: amount(rule.aloneMemberDay) },
                    { label: t('policy.above'), value: t(`policy.aboveValues.${rule.above}`) },
                    { label: t('policy.cap'), value: amount(rule.cap) },
                  ]}
                />
              </li>
            ))}
          </ul>
        )}
      </ReadState>
    </section>
  );
}
