-- Invite codes typed with look-alikes (O for 0, I or L for 1: codes are read aloud and copied from posters) find
-- their member: bindRecommender tries the exact code first, then this key, and binds only when one member has it.
-- New codes use Crockford's base32, which has no look-alikes; codes made before keep working as they are.
CREATE INDEX "members_invite_code_lookalike_idx" ON "members" USING btree (translate("invite_code", 'OIL', '011'));