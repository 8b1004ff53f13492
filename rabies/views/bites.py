"""(Filled by its part of issue 11.)"""

urlpatterns: list = []
SECTIONS: list = []
