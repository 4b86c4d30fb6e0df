/**
 * The Content screen's about page: its zh and, when wanted, en title and text (HTML), saved at once for members;
 * beside the form, the page as members see it (the server's sanitised text, shown by the member app's rule).
 */
import Button from 'antd-mobile/es/components/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormField } from '../../../components/FormField';
import type { OpsBody, OpsResult } from '../../api/opsContract';
import { useDesk } from '../../DeskContext';
import { useDeskAction, useDeskRead } from '../../deskHooks';
import { ActionState } from '../../parts/ActionState';
import { readAgain } from '../../parts/ReadState';
import { RichPreview } from '../../parts/RichPreview';
import { KeptRead } from './keptRead';
import { Saved } from './saved';
import { runAct } from '../../../../machines/ops/opsActionMachine';

type AboutPage = OpsResult<'opsAbout'>;
type Lang = 'zh' | 'en';
const empty = { title: '', body: '' };
const filled = (text: { title: string; body: string }) => text.title.trim() !== '' && text.body.trim() !== '';

export function About() {
  const page = useDeskRead('opsAbout', undefined);
  return (
    <KeptRead actor={page} isEmpty={() => false} emptyTitle="">
      {(value) => <AboutEditor page={value} onSaved={() => readAgain(page)} />}
    </KeptRead>
  );
}

function AboutEditor({ page, onSaved }: { page: AboutPage; onSaved: () => void }) {
  const { t } = useTranslation('ops');
  const { api } = useDesk();
  const [form, setForm] = useState({ zh: page.zh ?? empty, en: page.en ?? empty, withEn: page.en !== null });
  const save = useDeskAction((request: OpsBody<'opsAboutPut'>) => api.call('opsAboutPut', { body: request }));
  const valid = filled(form.zh) && (!form.withEn || filled(form.en));
  const change = (lang: Lang, field: 'title' | 'body', value: string) => setForm({ ...form, [lang]: { ...form[lang], [field]: value } });
  const texts = (lang: Lang) => (
    <fieldset className="desk-form" lang={lang}>
      <legend className="field-label">{t(`content.notices.lang.${lang}`)}</legend>
      <FormField id={`about-${lang}-title`} label={t('content.notices.title')} error={null} maxLength={200} value={form[lang].title} onChange={(event) => change(lang, 'title', event.target.value)} />
      <label htmlFor={`about-${lang}-body`} className="field-label">
        {t('content.notices.body')}
      </label>
      <textarea id={`about-${lang}-body`} rows={8} value={form[lang].body} onChange={(event) => change(lang, 'body', event.target.value)} />
    </fieldset>
  );
  return (
    <div className="desk-columns">
      <section className="card desk-form" aria-labelledby="about-title">
        <h3 id="about-title" className="card-title">
          {t('content.about.title')}
        </h3>
        <form
          className="desk-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (valid) runAct(save, { zh: form.zh, ...(form.withEn ? { en: form.en } : {}) });
          }}
        >
          {texts('zh')}
          <label className="desk-check">
            <input type="checkbox" checked={form.withEn} onChange={(event) => setForm({ ...form, withEn: event.target.checked })} />
            {t('content.notices.withEn')}
          </label>
          {form.withEn ? texts('en') : <p className="desk-muted">{t('content.notices.zhOnly')}</p>}
          <Button type="submit" color="primary" shape="rounded" disabled={!valid}>
            {t('content.about.save')}
          </Button>
        </form>
        <ActionState actor={save} busyText={t('content.saving')} done={(result: OpsResult<'opsAboutPut'> | null) => <Saved sanitised={result?.preview.changedBySanitiser ?? false} onShown={onSaved} />} />
      </section>
      <section className="desk-form" aria-labelledby="about-shown-title">
        <h3 id="about-shown-title" className="card-title">
          {t('content.about.asMembersSee')}
        </h3>
        {page.zh ? <RichPreview lang="zh" label={t('content.notices.lang.zh')} title={page.zh.title} html={page.zh.body} /> : <p className="desk-muted">{t('content.about.none')}</p>}
        {page.en ? <RichPreview lang="en" label={t('content.notices.lang.en')} title={page.en.title} html={page.en.body} /> : <p className="desk-muted">{t('content.about.noEn')}</p>}
      </section>
    </div>
  );
}
