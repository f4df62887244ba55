"""The groups of foods (and drinks and medicines) a caution may name, and the words that name
each group or a common food of it, and a few patterns of how an answer speaks of them
(Qt-free data; `cautions` reads them)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet

# a group of foods -> the words that name it or a common food of it (singular and plural)
GROUPS: dict[str, frozenset[str]] = {k: frozenset(v.split()) for k, v in {
    "shellfish": "shellfish seafood prawn prawns shrimp shrimps crab crabs lobster lobsters "
                 "scallop scallops mussel mussels oyster oysters clam clams langoustine "
                 "langoustines crayfish squid calamari octopus cockles",
    "nuts": "nut nuts peanut peanuts almond almonds walnut walnuts cashew cashews hazelnut "
            "hazelnuts pecan pecans pistachio pistachios macadamia praline marzipan nutella "
            "satay pesto snickers reese reeses ferrero toblerone baklava frangipane bakewell "
            "brittle",
    "peanuts": "peanut peanuts satay snickers reese reeses",
    "dairy": "dairy milk cheese butter cream yogurt yoghurt latte cappuccino mozzarella "
             "parmesan brie cheddar cake cakes cheesecake brioche custard pancake pancakes "
             "quiche croissant croissants pizza pizzas margherita lasagne lasagna beurre "
             "fondue raclette tiramisu gelato milkshake milkshakes ricotta "
             "mascarpone feta halloumi paneer ghee carbonara alfredo cheeseburger cheeseburgers",
    "gluten": "gluten wheat bread pasta flour barley rye couscous pizza noodles spaghetti "
              "croissant cake beer toast bagel bagels baguette crumpet crumpets sandwich "
              "sandwiches pastry pastries lasagne lasagna macaroni ravioli penne biscuits "
              "crackers lager ale stout brownie brownies muffin muffins scone scones cookie "
              "cookies pie pies "  # (QA pass 43h: "Can I have a pork pie?", coeliac)
              # (QA pass 54d: "Can Mateo have a slice of our sourdough?", coeliac: a yes)
              "sourdough ciabatta focaccia naan pitta brioche doughnut doughnuts donut donuts "
              "waffle waffles pretzel pretzels spelt bulgur semolina seitan croutons "
              "breadcrumbs",
    "fish": "fish salmon tuna cod sardine sardines anchovy anchovies trout mackerel hake "
            "sushi",
    "eggs": "egg eggs omelette omelet mayonnaise meringue cake cakes cheesecake brioche custard "
            "pancake pancakes quiche waffle waffles carbonara frittata mayo aioli brownie "
            "brownies muffin muffins",
    "soy": "soy soya tofu edamame miso",
    "sesame": "sesame tahini hummus houmous halva halvah halwa",
    "meat": "meat beef pork chicken lamb ham bacon steak sausage sausages turkey veal duck "
            "burger chorizo salami prosciutto meatball meatballs meatloaf pepperoni "
            "pancetta gammon venison brisket ribs carbonara "
            # (QA pass 47b: "Can Kenji have a cheeseburger?", Kenji vegan, had no line)
            "burgers cheeseburger cheeseburgers hamburger hamburgers hotdog hotdogs",
    # (QA pass 50b: "…cut down on red meat and beer." read as all meat, chicken too)
    "red meat": "beef pork lamb ham bacon steak sausage sausages veal burger burgers chorizo "
                "salami prosciutto meatball meatballs meatloaf pepperoni pancetta gammon "
                "venison brisket ribs mutton mince hamburger hamburgers cheeseburger "
                "cheeseburgers",
    "pork": "pork ham bacon chorizo salami prosciutto pepperoni pancetta gammon carbonara",
    "alcohol": "alcohol wine beer vodka whisky whiskey gin rum cocktail cocktails champagne "
               "cider sangria lager ale stout prosecco brandy bourbon sherry "
               # (QA pass 47a: "Can Lucía have a glass of cava…?", 9, had no caution)
               "cava tequila vermouth liqueur liquor martini margarita mojito aperol spritz "
               "schnapps absinthe mead",
    # (QA pass 39: "Sam can have a large quantity of sweets…", Sam having type 1 diabetes;
    # what is mostly sugar, not every treat: a slice of birthday cake is the family's call)
    # (QA pass 50a: "…you can have gulab jamun with your diabetes." had no line)
    "sugar": "sugar sugary sweets candy candies lollipop lollipops fizzy soda sodas cola "
             "jamun jalebi jalebis ladoo ladoos laddoo laddu barfi rasgulla rasgullas mithai "
             "coke lemonade syrup",
    # (QA pass 40b P7: "Can my dad take aspirin?", on warfarin: they thin the blood further)
    "painkillers": "aspirin ibuprofen naproxen nurofen advil aleve anadin nsaid nsaids",
    # (QA pass 42g: "You can have a glass of red wine today." to one on warfarin, no caution:
    # alcohol, and the juices the NHS names for warfarin, change how it works)
    "thinner juices": "cranberry cranberries grapefruit grapefruits",
    "serotonin": "wort tramadol sumatriptan",
    # pregnancy (with alcohol): what the NHS's "Foods to avoid in pregnancy" and "Medicines in
    # pregnancy" pages name (QA pass 47b: "Can I have a glass of wine tonight?" and "Can I
    # take ibuprofen…?" at 24 weeks pregnant, no line; brie only as a vegan's)
    "pregnancy": "ibuprofen naproxen aspirin nurofen advil aleve brie camembert pate liver "
                 "swordfish marlin shark",
    # (QA pass 47a: amlodipine, and a statin: the NHS's pages say not to have grapefruit or
    # its juice, which raises the medicine's level)
    "grapefruit": "grapefruit grapefruits pomelo pomelos",
    # what one who quit smoking keeps off (QA pass 54a: "Is it OK for me to smoke one
    # cigarette at the party?" answered "It's not a big deal…", "I quit smoking in March."
    # told)
    "smoking": "smoking smoke cigarette cigarettes cigar cigars tobacco vape vaping fag fags",
    # the foods the NHS's "Salt: the facts" names as almost always high in salt (cheese
    # and prawns aside: eaten a little, they are no warning on their own), and crisps
    "salt": "salted crisps bacon ham gammon salami chorizo pepperoni prosciutto "
            "anchovy anchovies olives pickles gravy marmite",
    # (what the NHS names for warfarin: a big change in foods rich in vitamin K)
    "leafy greens": "spinach kale chard lettuce rocket arugula cabbage collard collards "
                    "watercress broccoli sprouts greens",
    "caffeine": "caffeine coffee coffees espresso espressos latte lattes cappuccino "
                "cappuccinos americano macchiato mocha tea teas cola coke",
    "unpasteurised": "unpasteurised unpasteurized brie camembert roquefort gorgonzola stilton",
    "liver": "liver pate pâté",
    "wort": "wort",  # ("My pharmacist said I must avoid St John's wort with it.", 53d)
    # (QA pass 43d: "…help you find a kitten", Sarah allergic to cats, had no line)
    "cats": "cat cats kitten kittens kitty",
    "dogs": "dog dogs puppy puppies",
    # (QA pass 42b: "Can I take co-amoxiclav?", allergic to penicillin: "…it would work well")
    "penicillin": "penicillin penicillins amoxicillin amoxycillin amoxil ampicillin amoxiclav "
                  "coamoxiclav augmentin flucloxacillin floxapen phenoxymethylpenicillin "
                  "benzylpenicillin piperacillin tazocin pivmecillinam",
}.items()}


# words that end a list after "without" (`cautions`: "…without eating gluten or any form of
# wheat" offers no wheat)
LIST_ENDS = frozenset("with then while yet so".split())
# a clause that refuses what the one before it named ("…but I'm not going to recommend it",
# "It's not suitable…", "I wouldn't recommend it")
REFUSES_IT = re.compile(
    r"^\s*(?:i['’]m|i am|i|we)?\s*(?:not|n['’]t|would not|wouldn['’]t|won['’]t|don['’]t|do not)\s+"
    r"(?:going to\s+|really\s+)?(?:recommend|suggest|advise)\w*\s+(?:it|that|this|them)\b|"
    r"^\s*(?:it|that|this)(?:['’]s|\s+is)\s+not\s+(?:really\s+)?(?:suitable|safe|advisable|"
    r"recommended|a good idea)\b", re.IGNORECASE)
# a dish called a cocktail, no drink ("a prawn cocktail", QA pass 48a)
DISH_COCKTAIL = frozenset("prawn prawns shrimp shrimps seafood crab lobster fruit avocado".split())
# an answer that opens with a yes, and a word that turns it ("It's very possible. You're
# right, my wife is vegetarian…" names the diet as no reason against the steak)
YES_OPENS = re.compile(r"\W*(?:yes|yeah|yep|sure|of course|absolutely|definitely|certainly|"
                       r"it['’]s (?:very |quite |entirely |totally )?(?:possible|fine|ok|okay|"
                       r"safe))\b", re.IGNORECASE)
TURNS = re.compile(r"\b(?:but|however|though|although|except|unless|as long as|only if)\b",
                   re.IGNORECASE)


# words before a mention of a food that say something against it (`cautions`)
AGAINST = frozenset("not no n't never avoid avoiding avoided skip skipping without free "
                    "unable safer safest doctor gp pharmacist young underage adults adult grown "
                    "caution against warn warning beware "
                    "allergic allergy allergies intolerant instead careful unless except "
                    "rather cannot can't shouldn't mustn't dangerous risky risk away "
                    "substitute replace alternative alternatives watch limit moderation "
                    "sparingly insulin afraid scared label labels traces "
                    # (QA pass 43e: "…extremely difficult for her to have eggs", of the
                    # allergy itself, read "names “eggs” without a word of warning")
                    "difficult anaphylaxis anaphylactic epipen "
                    # (what was given up, said so: "You quit smoking in March.", QA pass 54)
                    "quit quits quitting stop stopped stopping non-smoker "
                    # (QA pass 43h: "coeliac disease … caused by … gluten consumption", of
                    # the illness itself, read as offering gluten)
                    "cause causes caused trigger triggers triggered symptoms damage".split())


# the illnesses a clause may speak of, with the group each rules out: a clause of one speaks
# of its foods, no other ("I've got type 2 diabetes and I take grapefruit juice with my
# tablets" offers grapefruit, to QA pass 52b read as of the diabetes)
# every food a group names, each a food of its own where a statement names it: "My doctor
# says I must avoid cranberry juice.", "My GP told me to avoid grapefruit." (QA pass 54:
# no caution, as neither names a group; "I avoid mornings" still names none)
FOODS: frozenset[str] = frozenset().union(*(GROUPS[g] for g in GROUPS if g not in ("cats", "dogs")))
ILL_GROUPS = ((frozenset("diabetes diabetic insulin".split()), "sugar"),
              (frozenset("coeliac celiac".split()), "gluten"))
ILL_WORDS = frozenset(w for ws, _ in ILL_GROUPS for w in ws)
# where a list of what is avoided ends at what else is done: "…avoid cranberry juice and
# keep my green vegetables steady" (QA pass 55b: green vegetables read as avoided)
DOES_NEXT = re.compile(r"\s+(?:and|but)\s+(?!(?:all|any|other|most)\b)[a-z]+\s+(?:my|your|his|"
                       r"her|their|our|it|them)\b")
# a question of antibiotics asks of the penicillin group only (`cautions.missed`, QA pass 52b)
ASKS_ANTIBIOTIC = re.compile(r"\bantibiotics?\b", re.IGNORECASE)
# the medicines and the drinks of the groups, for a question of one kind (`of_kind_asked`)
MEDICINES = GROUPS["painkillers"] | GROUPS["penicillin"] | GROUPS["serotonin"]
DRINKS = GROUPS["alcohol"] | GROUPS["caffeine"] | GROUPS["thinner juices"] | GROUPS[
    "grapefruit"] | frozenset("milk milks milkshake milkshakes juice juices soda sodas cola "
                              "coke fizzy lemonade smoothie smoothies".split())
_ASKS_MEDICINE = re.compile(r"\b(?:medicines?|medications?|meds|drugs?|tablets?|pills?|"
                            r"painkillers?)\b", re.IGNORECASE)
_ASKS_DRINK = re.compile(r"\bdrink(?:s|ing)?\b", re.IGNORECASE)
_ASKS_FOOD = re.compile(r"\b(?:eat|eating|foods?|meals?)\b", re.IGNORECASE)


def of_kind_asked(message: str, words: AbstractSet[str]) -> AbstractSet[str]:
    """The `words` (of foods, drinks and medicines) of the kind `message` asks about: an
    antibiotic, a medicine, a drink, a food, or any when it names no kind (QA pass 55b:
    "What medicine am I allergic to?" answered "I'm allergic to aspirin." read as leaving
    out cranberry juice, and "What should I avoid drinking?" the aspirin)."""
    if ASKS_ANTIBIOTIC.search(message):
        return words & GROUPS["penicillin"]
    if _ASKS_MEDICINE.search(message):
        return words & MEDICINES
    drink, food = _ASKS_DRINK.search(message), _ASKS_FOOD.search(message)
    return words & DRINKS if drink and not food else words - MEDICINES if food or drink \
        else words


def ill_keys(words: Iterable[str], key: Callable[[str], str]) -> set[str]:
    """What the illnesses `words` name rule out (`ILL_GROUPS`), as `key` matches foods."""
    said = set(words)
    return {key(x) for ws, group in ILL_GROUPS if said & ws for x in GROUPS[group]}


def ills_apart(asked: AbstractSet[str], key: Callable[[str], str]) -> set[str]:
    """The illness words that rule out none of the foods `asked` (as `key` has them): no
    warning of those ("…your mum … her condition with diabetes" to "Can my mum have
    grapefruit juice?", amlodipine told, QA pass 52's window check read as one)."""
    return {w for ws, group in ILL_GROUPS for w in ws
            if asked and not asked & {key(x) for x in GROUPS[group]}}
# eating or drinking, said of someone (`cautions`)
EATS = frozenset("eat eats eating drink drinks drinking have touch take consume".split())
# what has someone eat or drink a food (`cautions.offered`, of a message of the allergy itself)
SERVES = EATS | frozenset("enjoy enjoys try tries order serve serving cook make bake give "
                           "treat snack recipe love loves "
                           # (QA pass 47a: "I'll start baking her some cookies made from
                           # peanut butter…" to "What should my daughter avoid eating?")
                           "trying ordering orders serves cooking cooks making makes baking "
                           "bakes giving gives prepare prepares preparing recipes "
                           "enough".split())  # ("…prepare … recipes with egg…", 49a)
# what says a food is salty: the reason a low-salt diet's caution is read in ("A bacon
# sandwich is high in salt…", QA pass 49d)
SALTY = re.compile(r"\b(?:high|rich|loaded|packed|full)\s+(?:in|of|with)\s+(?:salt|sodium)|\btoo\s+"
                   r"(?:much\s+)?(?:salt|salty)|\b(?:salt|sodium)\s+content|\bsalty\b", re.IGNORECASE)

# what, a few words before an animal's name, says it is the animal, not its meat
ALIVE = frozenset("playing play plays played feed feeding feeds fed pet petting pets keep keeps "
                  "keeping raise raises raising chase chasing chased cuddle cuddling".split())


# what, before a food word, makes it another food: "oat milk", "peanut butter", "veggie
# burger" (a word of a caution itself, "almond milk" for a nut allergy, is read on its own)
NOT_OF_IT = frozenset("oat soy soya almond coconut rice cashew hazelnut hemp plant plant-based "
                      "dairy-free lactose-free vegan veggie vegetarian meat-free meatless "
                       "peanut nut apple cocoa shea bean lentil tofu quorn gluten-free "
                      "egg-free nut-free alcohol-free non-alcoholic sugar-free mock faux "
                      "imitation".split())
# … and after it: "butter beans", "meat substitute"
NOT_IT = frozenset("beans bean substitute substitutes alternative alternatives replacer "
                   "replacement analogue eater eaters chef chefs cook cooks baker bakers "
                   "maker makers".split())  # ("a meat-eater", 46a; "a pastry chef", 46b)

# the animals an allergy may name, and asking to have one ("Can we get a kitten?")
# the words a statement names a group by -> the group
NAMES = {"shellfish": "shellfish", "seafood": "shellfish", "crustaceans": "shellfish",
          "nuts": "nuts", "nut": "nuts", "tree nuts": "nuts", "peanuts": "peanuts",
          "peanut": "peanuts", "dairy": "dairy", "milk": "dairy", "lactose": "dairy",
          "gluten": "gluten", "wheat": "gluten", "fish": "fish", "eggs": "eggs", "egg": "eggs",
          "soy": "soy", "soya": "soy", "sesame": "sesame", "red meat": "red meat",
          "meat": "meat", "pork": "pork",
          "alcohol": "alcohol", "booze": "alcohol", "penicillin": "penicillin",
          "penicillins": "penicillin", "cats": "cats", "cat": "cats", "dogs": "dogs",
          "dog": "dogs",
          # (QA pass 53a: "…must avoid cranberry juice and big changes in leafy greens."
          # on warfarin, and a spinach and kale salad had no line; 53b: "…not too much
          # caffeine." in pregnancy, and "You can drink more coffee" had none)
          "leafy greens": "leafy greens", "leafy vegetables": "leafy greens",
          "green vegetables": "leafy greens", "greens": "leafy greens", "vitamin k": "leafy greens",
          "caffeine": "caffeine", "unpasteurised cheese": "unpasteurised",
          "unpasteurized cheese": "unpasteurised", "soft cheese": "unpasteurised",
          "soft cheeses": "unpasteurised", "blue cheese": "unpasteurised", "liver": "liver",
          "pate": "liver", "pâté": "liver", "st john's wort": "wort", "st johns wort": "wort",
          "smoking": "smoking", "cigarettes": "smoking", "tobacco": "smoking"}
# diets, and what each leaves out
DIETS = {"vegetarian": ("meat", "fish", "shellfish"),
          "vegan": ("meat", "fish", "shellfish", "dairy", "eggs"),
          "coeliac": ("gluten",), "celiac": ("gluten",), "pescatarian": ("meat",),
          "teetotal": ("alcohol",), "teetotaller": ("alcohol",), "diabetic": ("sugar",)}
ANIMALS = GROUPS["cats"] | GROUPS["dogs"]
GETS_ANIMAL = re.compile(r"\b(?:get|getting|adopt|adopting|buy|buying|have|having|keep|foster|"
                         r"bring|stroke|pet|visit)\s+(?:a|an|another|some|one|the|their|her|"
                         r"his)?\s*(?:cat|cats|kitten|kittens|kitty|dog|dogs|puppy|puppies)\b",
                         re.IGNORECASE)
# what a message asks for free of something ("a gluten-free pasta recipe": its pasta is no
# caution's, QA pass 50c)
FREE_OF = re.compile(r"\b[a-z]+-free\s+([a-z]+)")
# what an answer keeps out ("dishes that are gluten-free": it rests on the coeliac's
# caution, QA pass 50e)
KEPT_OUT = re.compile(r"\b([a-z]+)-free\b")
# what someone who cares for the user told them to keep off: "My doctor says I must avoid…",
# "The midwife said no unpasteurised cheese, no liver, and not too much caffeine." (QA pass
# 53: neither was a caution, as no sentence of "I")
CARERS = ("doctor", "gp", "midwife", "nurse", "consultant", "dietitian", "dietician", "specialist",
          "cardiologist", "pharmacist", "dentist", "physio", "obstetrician", "health visitor")
CARER_SAID = (rf"\b(?:{'|'.join(CARERS)})s?\s+"
              r"(?:says|said|told me|has told me|tells me|advised(?: me)?|advises(?: me)?|"
              r"recommends|recommended|wants me)\b")
CARER_NO = re.compile(CARER_SAID + r"\s+(?:that\s+)?(?:(?:i|me)\s+(?:should|must|need to|have to|"
                      r"to)\s+|to\s+)?(?:no|avoid|not\s+(?:too much|much|to (?:eat|drink|have))|"
                      r"cut\s+(?:down|back)\s+on|stay away from|limit)\s+(?P<what>[^.!?]+)",
                      re.IGNORECASE)
# what an answer says they are fine with, no food it names as one they must not have: "…he
# has no problem with nuts" (QA pass 53a)
FINE_WITH = re.compile(r"\b(?:no (?:problems?|issues?|trouble|allerg(?:y|ies)|reaction) (?:with|to)|"
                       r"(?:is|are|'s|'re) (?:fine|ok|okay) with|(?:is|are|'s|'re|isn't|aren't) "
                       r"not allergic to|isn't allergic to|can (?:safely )?(?:eat|have))\s+(?:"
                       r"(?!except\b|but\b|apart\b|other\b)[^.,;!?\s]+\s*)+")
# … of a food named before it: "Tunde is sending jollof and prawn suya, can I eat it?"
IT_ASKED = re.compile(r"\b(?:eat|drink|have|try)\s+(?:it|that|this|them|those|these|some)\s*\?$",
                      re.IGNORECASE)

# the rest of a list the patterns stop at the first comma of: "allergic to nuts, eggs and
# milk" (QA pass 54d: "…avoid red meat, shellfish and beer" was a caution of red meat)
LIST_TAIL = re.compile(r"(?:,\s*(?:and\s+|or\s+)?(?!(?:but|so|which|because|though|although|as|"
                       r"if|when|i|we|he|she|they|it|you|that|this|especially|except)\b)"
                       r"[a-z][\w'’-]*(?:\s+[a-z][\w'’-]*){0,3}(?=\s*[,.;!?]|\s*$))+",
                       re.IGNORECASE)
# words the patterns take in that name no food ("I can't have my phone at work", "…eat late")
NOT_FOODS = frozenset("any anything much many more late early too very really meals meal food "
                      "foods after before night day work home".split())
GROUP_NAMES = frozenset(GROUPS) | frozenset("alcohol dairy gluten nuts shellfish meat fish eggs "
                                            "sugar painkillers".split())
# words before a list of what to keep off ("…without eating gluten or any form of wheat")
LIST_AGAINST = frozenset("without avoid avoids avoiding".split())
# … what a list after "avoid" holds: foods, and the words between them
LISTED = FOODS | GROUP_NAMES | frozenset("all any and or of other red too much foods drinks like "
                                         "such as food leafy greens green processed".split())


def free_of(words: list[str], i: int) -> bool:
    """Is the mention `words[i]` what a food is free of, or the food free of it ("Yes,
    gluten-free bread is fine." to "Can Mateo have gluten-free bread?", Mateo coeliac: QA
    pass 54d saw it read as offering gluten and bread)?"""
    return words[i + 1:i + 2] == ["free"] or i > 1 and words[i - 1] == "free" and (
        words[i - 2] in FOODS or words[i - 2] in GROUP_NAMES)
# what says a thing is all right by denying it is bad: "A latex glove is not a bad idea"
# (QA pass 54b: read as a warning, "bad", to one allergic to latex)
NOT_BAD = re.compile(r"\b(?:(?:is|are|'s|'re|be)\s+)?(?:not|never|n't)\s+(?:a\s+|that\s+|too\s+|so\s+)?"
                     r"(?:bad|harmful|dangerous|risky|unsafe)\b(?:\s+(?:idea|thing|choice|option))?",
                     re.IGNORECASE)


def listed_against(before: list[str]) -> bool:
    """Is a mention in a list after "without" or "avoid" ("…without eating gluten or any
    form of wheat", QA pass 48a: "wheat" read as offered; "…told him to avoid all red meat,
    shellfish and beer", 54d: "beer")?"""
    at = max((k for k, w in enumerate(before) if w in LIST_AGAINST), default=-1)
    return at >= 0 and len(before) - at <= 10 and not set(before[at + 1:]) & LIST_ENDS and (
        before[at] == "without" or set(before[at + 1:]) <= LISTED)
# "gave up", read as "quit" (`AGAINST`): "You gave up caffeine and smoking."
GAVE_UP = re.compile(r"\b(?:gave|given|give|giving|gives)\s+up\b", re.IGNORECASE)
